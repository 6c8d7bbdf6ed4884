notice(type(42))
notice(type('hi', detailed))
notice(type([1, 2], generalized))
notice(42.type)
