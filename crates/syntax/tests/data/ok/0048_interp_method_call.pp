$x = 'abc'
notice("${x.upcase}")
