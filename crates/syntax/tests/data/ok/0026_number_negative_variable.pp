$a = 3
$b = -$a
$c = - $a
notice($b, $c)
