[1].each |
  Integer $x,
  $y = 2
| { notice($x, $y) }
