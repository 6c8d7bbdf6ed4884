class foo($a, $b = 1) { }
