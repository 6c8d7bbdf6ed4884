$a = [undef, default, true, false]
notice($a)
