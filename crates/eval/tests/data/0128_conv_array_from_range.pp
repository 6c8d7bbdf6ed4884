notice(Array(Integer[1, 5]))
notice(Array(Integer[1, 10].step(3)))
