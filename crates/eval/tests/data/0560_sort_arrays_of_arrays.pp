notice(sort([[2, 1], [1, 3], [1, 2], [1], []]))
notice(sort([['b'], ['a', 'z'], ['a']]))
notice(sort([[1, 'a'], [1.5], [0, 2]]))
