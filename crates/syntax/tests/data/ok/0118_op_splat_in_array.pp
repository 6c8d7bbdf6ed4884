$a = [1, 2]
$b = [0, *$a, 3]
notice($b)
