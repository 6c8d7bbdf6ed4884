notice({a => 1, b => 2, c => 3} - [a, c])
notice({a => 1, b => 2} - {a => 100})
notice({a => 1, b => 2} - b)
