notice(split('', ','))
notice(split('a,,b,', ','))
notice(split(',a', ','))
notice('a b  c'.split(' '))
