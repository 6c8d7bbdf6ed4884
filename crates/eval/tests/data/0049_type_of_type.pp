notice(type(Integer))
notice(type(Integer[1, 2]))
notice(type(String, generalized))
