class foo ($x, $x) { }
