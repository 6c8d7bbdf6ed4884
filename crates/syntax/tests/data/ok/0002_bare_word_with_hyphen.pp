$x = foo-bar
notice($x)
