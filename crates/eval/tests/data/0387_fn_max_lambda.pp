notice(max('apple', 'fig', 'banana') |$a, $b| { compare($a.length, $b.length) })
