notice(keys([1, 2]))
