notice(1 << 4)
notice(256 >> 2)
notice(-8 >> 1)
notice(1 << -1)
