notice(1 in {a => 1})
notice('a' in {'A' => 1})
