$x = [1e10, 1.5e-3, 2E5, 2E-5, 3e0]
notice($x)
