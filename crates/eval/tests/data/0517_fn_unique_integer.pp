notice(unique(5))
