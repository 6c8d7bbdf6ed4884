notice(empty(0))
notice(empty(1.5))
