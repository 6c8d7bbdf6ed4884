$a = [1, 2]
$b = $a.map |$x| { $x * 2 }
notice($b)
