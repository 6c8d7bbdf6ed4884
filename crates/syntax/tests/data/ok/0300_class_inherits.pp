class foo::params { }
class foo inherits foo::params { }
