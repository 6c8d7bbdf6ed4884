notice({a => 1, b => 2}.reduce(0) |$m, $pair| { $m + $pair[1] })
notice({a => 1, b => 2}.reduce |$m, $pair| { "${m}|${pair}" })
