$s = 'abc'.upcase
$n = [1, 2].length
notice($s, $n)
