$x = if true { 1 } else { 2 }
notice($x)
