$x = 'c'
notice($x ? { 'a' => 1, 'b' => 2 })
