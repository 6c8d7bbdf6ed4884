notice([].reduce |$m, $x| { $m + $x })
notice([].reduce(5) |$m, $x| { $m + $x })
