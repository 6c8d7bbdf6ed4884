notice(sort([[1, 'a'], [1, 2]]))
