$a = 'back\\slash'
$b = 'it\'s'
notice($a, $b)
