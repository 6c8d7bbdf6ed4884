notice(floor(2.9))
notice(floor(-2.1))
notice(floor(4))
notice(floor('7.7'))
