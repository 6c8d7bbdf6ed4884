class mrtest_kinds (
  Integer $int          = 3,
  Float $float          = 2.5,
  Boolean $flag         = false,
  Optional[String] $opt = undef,
  Hash $map             = { 'b' => 2, 'a' => [1, 2] },
  Enum['x', 'y'] $pick  = 'y',
  $untyped              = 'plain',
) {
}
class { 'mrtest_kinds':
  int => 7,
}
