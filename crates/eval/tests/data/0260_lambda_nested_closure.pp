$outer = 'O'
$r = [1, 2].map |$i| {
  [a, b].map |$j| { "${outer}${i}${j}" }
}
notice($r)
