notice(getvar('::nope'))
notice(getvar('x.y'))
