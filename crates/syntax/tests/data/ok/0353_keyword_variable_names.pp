$class = 1
$if = 2
$node = 3
$default = 4
notice($class, $if, $node, $default)
