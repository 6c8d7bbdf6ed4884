$h = { 'a' => 1 }
$h.each |$k, $v| { notice($k, $v) }
