$b = abs(-8) / 2
notice($b)
