notice(type(1.5))
notice(type(1.5, generalized))
