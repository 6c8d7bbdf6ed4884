class mrtest_inner {
  file { '/tmp/mrtest-inner': ensure => file }
}
class mrtest_outer {
  File { mode => '0600', owner => 'mrtest-svc' }
  include mrtest_inner
  file { '/tmp/mrtest-outer': ensure => file }
}
include mrtest_outer
