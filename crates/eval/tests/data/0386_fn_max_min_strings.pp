notice(max('a', 'B'))
notice(min('a', 'B'))
notice(max('10', '9'))
notice(max([3, 8, 2]))
