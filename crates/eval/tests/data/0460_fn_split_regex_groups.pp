notice(split('a1b2c', /(\d)/))
