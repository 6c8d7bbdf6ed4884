$a = [1, 2, 3]
notice($a[10])
notice($a[-10])
notice($a[2, 5])
notice($a[5, 2])
