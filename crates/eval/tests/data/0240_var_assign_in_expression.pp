notice($x = 5)
notice($x)
