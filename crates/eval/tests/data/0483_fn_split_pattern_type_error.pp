notice(split('a1b', 5))
