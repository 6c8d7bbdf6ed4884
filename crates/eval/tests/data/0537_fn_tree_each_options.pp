$d = {a => {b => 1}, c => [2]}
$d.tree_each({include_containers => false}) |$p, $v| { notice("${p} => ${v}") }
$d.tree_each({include_root => false}) |$p, $v| { notice("noroot ${p} => ${v}") }
$d.tree_each({include_values => false}) |$p, $v| { notice("novalues ${p} => ${v}") }
[1, [2, [3]], 4].tree_each({order => breadth_first}) |$p, $v| { notice("bf ${p} => ${v}") }
notice(Array([1, [2]].tree_each))
notice([1, [2]].tree_each =~ Iterator)
$d.tree_each |$e| { notice("one ${e}") }
