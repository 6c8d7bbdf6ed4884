notice(index([1, 2]))
