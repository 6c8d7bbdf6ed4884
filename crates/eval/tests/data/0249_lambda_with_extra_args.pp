with(1, 2) |$a| { notice($a) }
