$k = 'key'
$h = { $k => 1, "${k}2" => 2 }
notice($h)
