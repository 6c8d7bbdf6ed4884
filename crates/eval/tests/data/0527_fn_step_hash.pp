notice({a => 1, b => 2, c => 3}.step(2).map |$x| { $x })
