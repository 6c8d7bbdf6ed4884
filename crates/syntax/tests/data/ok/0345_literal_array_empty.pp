$a = []
notice($a)
