$x = 'a'
$y = $x ? { 'a' => 1, default => 2 }
notice($y)
