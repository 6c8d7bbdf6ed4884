$x = unless false { 'yes' }
notice($x)
