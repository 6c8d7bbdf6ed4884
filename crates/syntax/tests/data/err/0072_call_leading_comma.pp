notice(, 1)
