notice(regsubst('abc', '(', 'x'))
