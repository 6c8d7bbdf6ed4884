Package['a'] -> File['b'] ~> Service['c']
