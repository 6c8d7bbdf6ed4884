$a = "a\qb"
notice($a)
