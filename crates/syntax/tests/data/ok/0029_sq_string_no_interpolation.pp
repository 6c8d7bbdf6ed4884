$x = 1
$a = 'value is $x and ${x}'
notice($a)
