$t = Integer [1, 2]
notice($t)
