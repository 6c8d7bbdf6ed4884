$it = 0.step(6, 2)
notice(type($it))
notice(Array($it))
