$h = {z => 1, a => 2, m => 3}
notice($h)
notice($h + {b => 4, z => 0})
