private(1)
