$a = [10, 20, 30, 40, 50]
notice($a[0])
notice($a[-1])
notice($a[1, 2])
notice($a[-2, 2])
notice($a[1, -2])
