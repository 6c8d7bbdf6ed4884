$a = 'x'
$y = $a ? { 'x' => $a ? { 'x' => 1, default => 2 }, default => 3 }
notice($y)
