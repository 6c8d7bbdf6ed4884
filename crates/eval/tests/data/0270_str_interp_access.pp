$h = {k => 'v', n => [1, 2]}
notice("${h[k]}")
notice("${h['n'][1]}")
$a = [a, b]
notice("${a[0]}-${a[-1]}")
notice("$a[1]")
