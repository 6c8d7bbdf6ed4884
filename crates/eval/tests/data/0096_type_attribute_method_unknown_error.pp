$t = Integer[1, 10]
notice($t.from)
