$t = Struct[{name => String, Optional[port] => Integer}]
notice({name => 'a'} =~ $t)
notice({name => 'a', port => 80} =~ $t)
notice({name => 'a', port => 'x'} =~ $t)
notice({port => 80} =~ $t)
notice({name => 'a', extra => 1} =~ $t)
