notice([1, 2, 3].reverse_each)
notice(type([1, 2].reverse_each))
