with(1) |$a, $b| { notice($a) }
