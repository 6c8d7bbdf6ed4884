[$a, $b] = [1, 2]
notice($a)
notice($b)
[$c, [$d, $e]] = [3, [4, 5]]
notice("${c} ${d} ${e}")
