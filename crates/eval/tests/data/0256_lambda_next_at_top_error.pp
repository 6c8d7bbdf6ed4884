next(1)
