$a = 1 << 4
$b = 256 >> 2
notice($a, $b)
