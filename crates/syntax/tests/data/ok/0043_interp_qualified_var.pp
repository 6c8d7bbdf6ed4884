notice("os: $::osfamily and ${::os}")
notice("x: $foo::bar")
