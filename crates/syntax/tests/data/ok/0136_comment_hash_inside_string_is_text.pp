$a = 'not # a comment'
$b = "not /* a comment */ either"
notice($a, $b)
