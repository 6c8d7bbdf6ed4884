notice(join([1, 2, 3]))
notice(join([1, 2, 3], ', '))
notice([a, [b, c]].join('-'))
notice([].join(','))
