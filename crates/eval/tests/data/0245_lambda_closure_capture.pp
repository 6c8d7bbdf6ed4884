$base = 10
$r = [1, 2].map |$x| { $x + $base }
notice($r)
