$type = 'notify'
$attrs = { message => 'hi' }
$type { 'a': * => $attrs }
