notice(String(1.5e10))
notice(String(0.1))
notice(String(2.0, '%d'))
notice(String(2.5, '%e'))
