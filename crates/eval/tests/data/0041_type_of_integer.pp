notice(type(1))
notice(type(1, generalized))
notice(type(-5))
