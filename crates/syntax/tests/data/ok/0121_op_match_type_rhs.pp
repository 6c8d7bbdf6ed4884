$a = 5 =~ Integer
notice($a)
