$h = {a => 1, b => 'x'}
notice("${h}")
notice(String($h))
notice($h)
notice([$h])
