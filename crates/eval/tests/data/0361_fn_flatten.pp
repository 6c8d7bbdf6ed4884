notice(flatten([1, [2, [3, [4]]]]))
notice(flatten(1, [2], [[3]]))
notice(flatten([]))
notice([[a, b], [c]].flatten)
