notice(values({a => 1, b => 2}))
notice({}.values)
notice({a => [1], b => undef}.values)
