[1].each |Integer *$rest| { notice($rest) }
