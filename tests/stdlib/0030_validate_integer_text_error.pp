validate_integer('x')
