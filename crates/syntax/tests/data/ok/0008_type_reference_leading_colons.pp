$t = ::Foo::Bar
notice($t)
