validate_string()
