notice([1, 2, 3, 4].filter |$x| { $x % 2 == 0 })
notice([a, b, c].filter |$i, $v| { $i != 1 })
