$t = Integer[1, 10]
notice($t.from)
notice($t.to)
notice(Integer[5].to)
