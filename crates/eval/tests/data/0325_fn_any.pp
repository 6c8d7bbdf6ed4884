notice([1, 2, 3].any |$x| { $x > 2 })
notice([1, 2, 3].any |$x| { $x > 5 })
notice([].any |$x| { true })
notice({a => 1}.any |$pair| { $pair[0] == 'a' })
