$a = 'b' in ['a', 'b']
$b = 'k' in { 'k' => 1 }
$c = 'ell' in 'hello'
$d = Integer in [1, 'a']
notice($a, $b, $c, $d)
