notice(Array(Integer[1, 5]))
notice(Array(1.step(10, 3)))
