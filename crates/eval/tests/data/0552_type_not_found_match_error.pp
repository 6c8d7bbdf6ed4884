$x = 'a'
notice($x =~ Nosuch)
