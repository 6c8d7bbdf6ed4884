# A memo read once is extended in place; the results must still be values.
$start = { 'a' => 1 }
$h = [1, 2, 3].reduce($start) |$memo, $i| { $memo + { "k${i}" => $i } }
notice($h)
notice($start)
$a = [1, 2, 3].reduce([]) |$memo, $i| { $memo << $i }
notice($a)
$s = ['x', 'y'].reduce('') |$memo, $c| { ($memo + $c) }
notice($s)
