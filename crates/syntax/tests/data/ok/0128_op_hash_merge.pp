$h = { 'a' => 1 } + { 'b' => 2 }
$i = $h - ['a']
notice($h, $i)
