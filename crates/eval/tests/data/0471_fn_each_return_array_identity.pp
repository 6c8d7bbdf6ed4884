$a = [1, 2]
$r = $a.each |$x| { $x * 100 }
notice($r == $a)
