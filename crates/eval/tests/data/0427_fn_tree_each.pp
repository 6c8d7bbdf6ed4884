$d = [1, [2, 3]]
$d.tree_each |$p, $v| { notice("${p}: ${v}") }
