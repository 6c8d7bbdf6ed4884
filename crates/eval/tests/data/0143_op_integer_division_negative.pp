notice(-7 / 2)
notice(7 / -2)
notice(-7 / -2)
notice(-1 / 3)
