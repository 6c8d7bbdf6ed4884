class foo::if { }
