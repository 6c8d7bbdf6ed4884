notice(range('a', 'c', 'x'))
