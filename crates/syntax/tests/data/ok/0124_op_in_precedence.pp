$a = !('x' in ['x'])
$b = 1 + 1 in [2]
notice($a, $b)
