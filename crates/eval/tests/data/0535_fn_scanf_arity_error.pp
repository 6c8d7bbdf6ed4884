notice(scanf("1"))
