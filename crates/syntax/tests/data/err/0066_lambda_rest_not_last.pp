[1].each |*$rest, $x| { notice($x) }
