notice(round(1.5, 2))
