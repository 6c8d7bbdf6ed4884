$a = !!true
notice($a)
