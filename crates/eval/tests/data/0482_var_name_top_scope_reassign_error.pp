$name = 'x'
