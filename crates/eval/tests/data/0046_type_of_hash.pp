notice(type({a => 1, b => 'x'}))
notice(type({a => 1}, generalized))
notice(type({}))
