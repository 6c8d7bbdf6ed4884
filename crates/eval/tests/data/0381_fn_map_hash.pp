notice({a => 1, b => 2}.map |$k, $v| { "${k}${v}" })
notice({a => 1}.map |$pair| { $pair })
