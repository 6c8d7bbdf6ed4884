function foo($a, $a) { }
