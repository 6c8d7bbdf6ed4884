notice([1, 2, 3].all |$x| { $x > 0 })
notice([1, -2, 3].all |$x| { $x > 0 })
notice([].all |$x| { false })
notice({a => 1, b => 2}.all |$k, $v| { $v < 3 })
