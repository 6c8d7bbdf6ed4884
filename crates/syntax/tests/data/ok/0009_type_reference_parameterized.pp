$t = Integer[1, 2]
$u = Optional[String[1]]
notice($t, $u)
