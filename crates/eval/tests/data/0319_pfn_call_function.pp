function mymod::triple(Integer $x) { $x * 3 }
notice(call('mymod::triple', 4))
notice(call('upcase', 'abc'))
