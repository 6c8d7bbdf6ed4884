$a = 1 + 2 * 3
$b = (1 + 2) * 3
notice($a, $b)
