function two($a, $b) { $a }
notice(two(1))
