$x =
notice(1)
