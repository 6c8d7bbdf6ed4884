$r = [1, 2].map |Integer $x| { $x * 2 }
notice($r)
notice([[1, 2], [3, 4]].map |Array[Integer, 2, 2] $p| { $p[0] + $p[1] })
