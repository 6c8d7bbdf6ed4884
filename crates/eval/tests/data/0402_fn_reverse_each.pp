notice([1, 2, 3].reverse_each.map |$x| { $x })
[a, b].reverse_each |$x| { notice($x) }
notice(Array([1, 2].reverse_each))
