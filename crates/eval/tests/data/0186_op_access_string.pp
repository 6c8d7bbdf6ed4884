$s = 'abcdef'
notice($s[0])
notice($s[-1])
notice($s[1, 2])
notice($s[-3, 2])
notice($s[2, -1])
