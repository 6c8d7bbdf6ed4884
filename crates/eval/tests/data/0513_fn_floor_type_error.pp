notice(floor([1]))
