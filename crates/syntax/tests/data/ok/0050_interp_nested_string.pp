$x = 'in'
notice("outer ${"inner ${x}"} end")
