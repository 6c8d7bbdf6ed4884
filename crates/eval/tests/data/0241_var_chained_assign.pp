$a = $b = 3
notice($a)
notice($b)
