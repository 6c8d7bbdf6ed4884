$d = [1, [2, 3]]
$d.tree_each |$path, $v| { notice("${path}: ${v}") }
