notice(type(true))
notice(type(false, generalized))
