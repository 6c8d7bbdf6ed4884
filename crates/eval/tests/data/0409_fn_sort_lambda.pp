notice(sort([3, 1, 2]) |$a, $b| { compare($b, $a) })
notice(['bb', 'a', 'ccc'].sort |$a, $b| { $a.length - $b.length })
