$x = 'a'
$a = $x ? { 'a' => 1, default => 2 } + 10
notice($a)
