$x = foo::bar::baz
notice($x)
