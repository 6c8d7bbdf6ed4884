notice(type([1, 2].reverse_each))
notice(type(1.step(2)))
