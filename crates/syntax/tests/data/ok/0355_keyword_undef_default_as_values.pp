$a = undef
$b = default
notice($a, $b)
