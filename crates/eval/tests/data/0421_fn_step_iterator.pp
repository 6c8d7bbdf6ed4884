$it = Integer[0, 6].step(2)
notice(type($it))
notice(Array($it))
