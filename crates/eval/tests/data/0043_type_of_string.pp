notice(type('abc'))
notice(type('abc', generalized))
notice(type(''))
