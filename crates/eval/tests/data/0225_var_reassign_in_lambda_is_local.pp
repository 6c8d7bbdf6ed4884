$x = 1
[2].each |$y| {
  $x = $y
  notice("inner ${x}")
}
notice("outer ${x}")
