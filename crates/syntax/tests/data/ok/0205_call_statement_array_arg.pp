include ['a', 'b']
