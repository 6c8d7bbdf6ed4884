Class['a'] -> Class['b']
