validate_bool('true')
