$r = assert_type(Integer, 'x') |$expected, $actual| { "expected ${expected}, got ${actual}" }
notice($r)
