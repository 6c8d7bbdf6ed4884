notice(1.step(10, 3).map |$x| { $x })
notice([1, 2, 3, 4, 5].step(2).map |$x| { $x })
1.step(5, 2) |$x| { notice($x) }
