$x = 0X1f
notice($x)
