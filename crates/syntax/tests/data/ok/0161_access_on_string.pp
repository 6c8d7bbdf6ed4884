notice('hello'[0, 2])
