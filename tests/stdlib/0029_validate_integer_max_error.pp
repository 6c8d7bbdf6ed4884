validate_integer(5, 3)
