notice(regsubst('hello world', 'o', '0'))
notice(regsubst('hello world', 'o', '0', 'G'))
notice(regsubst('Hello', 'h', 'J', 'I'))
