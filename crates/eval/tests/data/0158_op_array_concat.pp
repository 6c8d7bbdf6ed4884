notice([1, 2] + [3, 4])
notice([1] + 2)
notice([1] + [[2]])
notice([1, 2] + {a => 1})
