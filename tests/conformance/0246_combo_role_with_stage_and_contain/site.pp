stage { 'mrtest_bootstrap': before => Stage['main'] }
class role::bootstrapped {
  class { 'profile::bootstrap': stage => 'mrtest_bootstrap' }
  contain profile::app
}
class profile::bootstrap {
  file { '/tmp/mrtest-bootstrap.flag': ensure => file }
}
class profile::app {
  notify { 'mrtest-app-ready': }
}
include role::bootstrapped
