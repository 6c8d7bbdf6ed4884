$d = [1, [2, [3]], 4]
notice(Array($d.tree_each({order => breadth_first})).map |$e| { $e[1] })
