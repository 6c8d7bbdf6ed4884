$x = 1e
