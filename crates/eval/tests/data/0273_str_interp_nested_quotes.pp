$x = 'X'
notice("outer ${"inner ${x}"}")
