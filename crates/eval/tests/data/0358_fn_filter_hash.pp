notice({a => 1, b => 2, c => 3}.filter |$k, $v| { $v > 1 })
notice({a => 1, b => 2}.filter |$pair| { $pair[0] == 'a' })
