$f = 1.0
$e = 2.5e3
$ty = Integer[1,2]
$re = /re/
notice("${f} ${e} ${ty} ${re}")
