$s = 'a,b'.split(',')
$j = $s.join('-')
notice($j)
