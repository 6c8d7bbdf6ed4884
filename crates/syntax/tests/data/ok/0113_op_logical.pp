$a = true and false or !true
$b = !(true or false) and true
notice($a, $b)
