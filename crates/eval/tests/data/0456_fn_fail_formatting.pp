fail('count:', 3, [1, 2])
