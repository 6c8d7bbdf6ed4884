{a => 1, b => 2}.each |$pair| { notice($pair) }
