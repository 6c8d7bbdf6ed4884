notice($x ? { type => 1 })
