notice(-0.0)
notice(0.0)
notice(0.0 == -0.0)
