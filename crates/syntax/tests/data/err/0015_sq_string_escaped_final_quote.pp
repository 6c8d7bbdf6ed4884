$a = 'abc\'
