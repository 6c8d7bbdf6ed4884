notice(Array({a => 1, b => 2}))
notice(Array({}))
