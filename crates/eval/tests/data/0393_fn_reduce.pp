notice([1, 2, 3, 4].reduce |$m, $x| { $m + $x })
notice([1, 2, 3].reduce(10) |$m, $x| { $m + $x })
notice([a, b, c].reduce |$m, $x| { "${m}${x}" })
