$d = {a => {b => 1}, c => [2]}
$d.tree_each({include_containers => false}) |$p, $v| { notice("${p} => ${v}") }
