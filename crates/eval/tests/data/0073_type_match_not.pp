notice(1 !~ String)
notice('a' !~ String)
