notice(keys({a => 1, b => 2}))
notice({}.keys)
notice({z => 1, a => 2}.keys)
