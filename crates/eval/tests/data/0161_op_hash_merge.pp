notice({a => 1} + {b => 2})
notice({a => 1, b => 2} + {a => 9})
notice({a => 1} + [b, 2])
