$a = [1, 2]
notice("$a[0] and $a[1]")
