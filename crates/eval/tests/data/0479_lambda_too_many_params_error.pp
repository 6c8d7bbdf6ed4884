[1, 2].each |$a, $b, $c| { notice($a) }
