class profile::splatbad {
  $opts = { 'port' => 80, 'colour' => 'blue' }
  mrtest_splat_target { 'x': * => $opts }
}
define mrtest_splat_target (Integer $port) { }
include profile::splatbad
