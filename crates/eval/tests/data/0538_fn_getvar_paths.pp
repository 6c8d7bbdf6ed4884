$x = {a => [1, 2]}
notice(getvar('x.a.1'))
notice(getvar('::x'))
notice(getvar('nope', 'dflt'))
notice(getvar('settings::x', 3))
notice(getvar('X'))
