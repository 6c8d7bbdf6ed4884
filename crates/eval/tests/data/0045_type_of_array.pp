notice(type([1, 2]))
notice(type([1, 'a'], generalized))
notice(type([]))
notice(type([], generalized))
