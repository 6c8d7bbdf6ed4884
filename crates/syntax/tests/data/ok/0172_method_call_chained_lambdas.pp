$r = [1, 2, 3].filter |$x| { $x > 1 }.map |$x| { $x * 10 }
notice($r)
