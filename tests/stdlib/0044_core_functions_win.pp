# Puppet 7's own functions of these names run, not stdlib's older ones.
notice(upcase(['a', 'b']))
notice(size('abc'))
notice(empty(''))
notice(unique([1, 1, 2]))
notice(capitalize('abc'))
notice(keys('x'))
