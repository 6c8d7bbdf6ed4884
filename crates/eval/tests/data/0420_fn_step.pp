notice(Integer[1, 10].step(3).map |$x| { $x })
notice([1, 2, 3, 4, 5].step(2).map |$x| { $x })
notice(10.step(4).map |$x| { $x })
Integer[1, 5].step(2) |$x| { notice($x) }
