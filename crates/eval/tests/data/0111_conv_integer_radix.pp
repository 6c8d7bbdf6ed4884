notice(Integer('10', 2))
notice(Integer('ff', 16))
notice(Integer('010', 10))
notice(Integer('777', 8))
