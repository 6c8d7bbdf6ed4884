notice(1 < 2 < 3)
