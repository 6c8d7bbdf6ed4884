$a = $b = 2
notice($a, $b)
