$r = reduce([1, 2], 0) |$m, $v| { $m + $v }
notice($r)
