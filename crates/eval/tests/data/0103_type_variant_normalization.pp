notice(type([1, 'a', 2.5]))
notice(type([1, 2.5], generalized))
