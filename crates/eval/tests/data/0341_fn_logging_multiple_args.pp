notice('a', 'b', 3)
warning('w1', 'w2')
notice([1, 2], {a => 1})
