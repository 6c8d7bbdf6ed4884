$h = {
  bare   => 1,
  'sq'   => 2,
  "dq"   => 3,
  4      => 4,
  [1]    => 5,
  undef  => 6,
  default => 7,
}
notice($h)
