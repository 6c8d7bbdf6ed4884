$x = 5
$a = $x > 1 and $x < 10
notice($a)
