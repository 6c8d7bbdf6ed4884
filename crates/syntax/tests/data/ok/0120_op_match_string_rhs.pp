$a = 'abc' =~ 'a.c'
$b = 'abc' !~ 'z'
notice($a, $b)
