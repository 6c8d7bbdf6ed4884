[1].each |$x| { notice($x); notice($x) }
