$v = with(2) |$n| { $a = $n * 3 $a + 1 }
notice($v)
