notice(flatten(1))
notice(flatten('a', 'b'))
