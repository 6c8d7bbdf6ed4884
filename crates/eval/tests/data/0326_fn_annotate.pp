type MyObj = Object[{attributes => {a => Integer}}]
$o = MyObj(1)
notice($o)
notice($o.a)
