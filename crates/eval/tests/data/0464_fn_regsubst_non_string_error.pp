notice(regsubst(5, '5', '6'))
