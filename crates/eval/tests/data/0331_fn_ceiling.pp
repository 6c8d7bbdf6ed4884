notice(ceiling(2.1))
notice(ceiling(-2.1))
notice(ceiling(5))
notice(ceiling('3.2'))
