class foo ($x = $foo::params::x) inherits foo::params { }
