$x = 2
$a = -($x + 1)
$b = - - 3
notice($a, $b)
