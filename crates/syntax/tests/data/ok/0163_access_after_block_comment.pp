$a = [1, 2]
$b = $a/* c */[1]
notice($b)
