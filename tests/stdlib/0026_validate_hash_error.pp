validate_hash([])
