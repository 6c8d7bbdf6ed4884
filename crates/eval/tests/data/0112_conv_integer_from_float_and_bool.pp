notice(Integer(3.9))
notice(Integer(-3.9))
notice(Integer(true))
notice(Integer(false))
