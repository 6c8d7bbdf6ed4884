'hello'
notice(1)
