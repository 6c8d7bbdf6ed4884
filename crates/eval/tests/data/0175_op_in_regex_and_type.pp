notice(/b+/ in 'abbc')
notice(/x/ in ['a', 'xy'])
notice(Integer in [a, 1])
notice(String in [1, 2])
