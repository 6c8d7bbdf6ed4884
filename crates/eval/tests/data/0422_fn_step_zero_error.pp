notice(Array([1, 2].step(0)))
