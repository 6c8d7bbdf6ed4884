$b = (8) / 2
notice($b)
