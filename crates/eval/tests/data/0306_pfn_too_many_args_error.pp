function one($a) { $a }
notice(one(1, 2))
