define foo ($a, $b, $a) { }
