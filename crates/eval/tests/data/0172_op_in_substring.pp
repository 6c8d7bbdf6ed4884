notice('b' in 'abc')
notice('B' in 'abc')
notice('x' in 'abc')
notice('' in 'abc')
