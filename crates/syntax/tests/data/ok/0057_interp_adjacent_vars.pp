$a = 'x'
$b = 'y'
notice("$a$b${a}${b}")
