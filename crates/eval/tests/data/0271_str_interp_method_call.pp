$s = 'hello'
notice("${s.upcase}")
notice("${s.length} chars")
notice("${[3, 1, 2].sort.join(',')}")
