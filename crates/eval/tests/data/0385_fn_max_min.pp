notice(max(1, 5, 3))
notice(min(1, 5, 3))
notice(max(1.5, 2))
notice(min(-1, -1.5))
