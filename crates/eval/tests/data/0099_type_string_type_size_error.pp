$x = String[3, 1]
notice($x)
