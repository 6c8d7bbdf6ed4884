notice(2 in [1, 2, 3])
notice('A' in ['a', 'b'])
notice(4 in [1, 2])
notice([1] in [[1], 2])
