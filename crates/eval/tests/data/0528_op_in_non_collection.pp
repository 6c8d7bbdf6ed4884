notice(1 in 5)
notice('a' in undef)
