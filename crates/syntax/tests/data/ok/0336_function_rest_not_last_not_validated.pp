function foo(*$rest, $a) { }
