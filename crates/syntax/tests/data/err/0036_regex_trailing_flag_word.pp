$x = 'a'
$y = $x =~ /a/i
notice($y)
