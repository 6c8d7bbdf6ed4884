include foo::class
notice($foo::if::x)
