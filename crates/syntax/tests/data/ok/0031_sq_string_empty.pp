$a = ''
$b = ""
notice($a, $b)
