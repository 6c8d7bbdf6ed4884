notice([1, 2, 3].map |$x| { $x * $x })
notice([a, b].map |$i, $v| { "${i}${v}" })
