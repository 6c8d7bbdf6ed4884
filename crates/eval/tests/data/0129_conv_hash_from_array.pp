notice(Hash([[1, 'one'], [2, 'two']]))
notice(Hash([a, 1, b, 2]))
notice(Hash([]))
