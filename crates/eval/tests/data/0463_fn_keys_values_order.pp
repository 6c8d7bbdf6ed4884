$h = {c => 3, a => 1, b => 2}
notice(keys($h))
notice(values($h))
notice($h.map |$k, $v| { $k })
