notice([1, 2, 3, 4].partition |$x| { $x > 2 })
notice({a => 1, b => 2}.partition |$k, $v| { $v == 1 })
notice([].partition |$x| { true })
