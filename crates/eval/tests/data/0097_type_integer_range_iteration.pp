notice(Integer[1, 4].map |$x| { $x * 10 })
notice(Array(Integer[3, 5]))
