$h = {a => 1, b => {c => 2}}
notice($h[a])
notice($h['b']['c'])
notice($h[missing])
notice($h[a, b])
