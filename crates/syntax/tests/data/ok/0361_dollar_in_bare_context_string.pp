$a = "a $ b"
notice($a)
