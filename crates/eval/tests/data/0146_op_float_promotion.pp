notice(1 + 1.0)
notice(type(1 + 1.0))
notice(type(4 / 2))
notice(type(4.0 / 2))
