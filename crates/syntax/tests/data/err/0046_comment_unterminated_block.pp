$x = 1
/* never closed
notice($x)
