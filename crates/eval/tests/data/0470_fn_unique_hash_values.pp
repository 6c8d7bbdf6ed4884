notice({a => 1, b => 2, c => 1}.unique)
