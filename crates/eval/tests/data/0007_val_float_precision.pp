notice(0.1 + 0.2)
notice(1.1 * 3)
notice(1.0 / 3.0)
notice(1e15 + 0.3)
