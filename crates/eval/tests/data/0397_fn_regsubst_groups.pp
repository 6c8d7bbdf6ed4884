notice(regsubst('2024-05-06', '(\d+)-(\d+)-(\d+)', '\3/\2/\1'))
notice(regsubst('abc', /(b)/, '[\0]'))
notice(regsubst('abc', /b/, '\\\\'))
