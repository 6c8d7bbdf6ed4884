42
notice(1)
