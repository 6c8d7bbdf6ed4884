$a = 8
$b = $a / 2 / 2
notice($b)
