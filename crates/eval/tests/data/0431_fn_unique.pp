notice(unique([1, 2, 1, 3, 2]))
notice(unique('aabbcc'))
notice(unique(['a', 'A']))
notice({a => 1, b => 1, c => 2}.unique)
