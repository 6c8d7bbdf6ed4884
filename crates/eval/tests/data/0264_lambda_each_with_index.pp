[x, y, z].each |$i, $v| { notice("${i}:${v}") }
