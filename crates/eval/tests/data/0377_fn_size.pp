notice(size('abc'))
notice(size([1]))
notice([].size)
