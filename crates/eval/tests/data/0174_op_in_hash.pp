$h = {a => 1, b => 2}
notice(a in $h)
notice(1 in $h)
notice('A' in $h)
