class $foo { }
