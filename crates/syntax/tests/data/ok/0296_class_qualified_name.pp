class foo::bar::baz { }
