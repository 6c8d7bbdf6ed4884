$b = '8' /2/ 2
notice($b)
