notice("${upcase('abc')}")
notice("${[1, 2].map |$v| { $v * 2 }}")
