function twice(Integer $x) { $x * 2 }
notice(twice('3'))
