$x = ['a', 'b']
notice("${x.map |$v| { $v.upcase }.join(',')}")
