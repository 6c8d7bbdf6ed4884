notice(call('sprintf', '%s-%s', 1, 2))
notice(call('max', 3, 9, 4))
$r = call('map', [1, 2]) |$x| { $x + 1 }
notice($r)
