$x = _private_word
notice($x)
