notice(sort([3, 1, 2]))
notice(sort(['b', 'A', 'a', 'B']))
notice(sort('cba'))
notice(sort([]))
