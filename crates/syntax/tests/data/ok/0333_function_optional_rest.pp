function mymod::f(String $a, Integer $b = 1, *$rest) { }
