$a = 10 % 3
notice($a)
