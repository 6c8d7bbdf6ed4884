$b = undef /2/ 2
