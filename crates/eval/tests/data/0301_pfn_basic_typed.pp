function mymod::double(Integer $x) >> Integer { $x * 2 }
notice(mymod::double(21))
