$x = 'b'
notice($x ? { 'a' => 1, 'b' => 2, default => 3 })
notice('zz' ? { 'a' => 1, default => 'dflt' })
