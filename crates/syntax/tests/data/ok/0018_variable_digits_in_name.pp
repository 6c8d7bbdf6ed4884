$a1b2 = 3
notice($a1b2)
