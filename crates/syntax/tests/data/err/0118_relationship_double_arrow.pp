Package['a'] -> -> File['b']
