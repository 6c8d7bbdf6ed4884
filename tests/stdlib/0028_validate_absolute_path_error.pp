validate_absolute_path(['/a', 'b'])
