$h = { 'x' => 8 }
$b = $h['x'] / 2
notice($b)
