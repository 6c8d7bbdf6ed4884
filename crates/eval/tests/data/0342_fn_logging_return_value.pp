$r = notice('x')
notice(type($r))
