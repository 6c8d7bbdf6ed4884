notice(1)
42
