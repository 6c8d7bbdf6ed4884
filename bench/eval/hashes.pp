# Nested hashes: build 2,000 entries three levels deep, then read them back.
$tree = Integer[1, 2000].reduce({}) |$memo, $i| {
  $memo + { "node${i}" => { 'config' => { 'port' => 8000 + $i, 'tags' => ["t${$i % 10}", 'web'] } } }
}
$ports = $tree.map |$name, $node| { $node['config']['port'] }
$total = $ports.reduce |$a, $b| { $a + $b }
$tags = $tree.filter |$name, $node| { 't3' in $node['config']['tags'] }
notice("${tree.length} ${total} ${tags.length} ${dig($tree, 'node42', 'config', 'port')}")
