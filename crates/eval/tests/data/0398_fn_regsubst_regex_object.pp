notice(regsubst('aaa', /a/, 'b'))
notice(regsubst('aaa', /a/, 'b', 'G'))
notice('a.b.c'.regsubst('.', '-', 'G'))
notice('a.b.c'.regsubst(/\./, '-', 'G'))
