[1].each |$x = 1, $y| { notice($y) }
