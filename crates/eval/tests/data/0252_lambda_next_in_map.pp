$r = [1, 2, 3, 4].map |$x| {
  if $x % 2 == 0 { next('even') }
  $x * 10
}
notice($r)
