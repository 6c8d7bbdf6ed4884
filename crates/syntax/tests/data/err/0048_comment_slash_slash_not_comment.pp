$x = 1 // not a comment
notice($x)
