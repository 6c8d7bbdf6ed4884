[[1, 2, 3]].each |$first, *$rest| { notice($first, $rest) }
