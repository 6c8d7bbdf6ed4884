$f = [1].map |$x, $y = 10| { $x + $y }
notice($f)
