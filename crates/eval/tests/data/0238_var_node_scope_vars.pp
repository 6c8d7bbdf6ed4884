$a = 1
$b = $a + 1
$c = "${a}${b}"
notice($c)
