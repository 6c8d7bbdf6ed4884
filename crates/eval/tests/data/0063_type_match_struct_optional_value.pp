$t = Struct[{a => Optional[Integer]}]
notice({a => undef} =~ $t)
notice({} =~ $t)
$u = Struct[{NotUndef[b] => Integer}]
notice({b => 1} =~ $u)
