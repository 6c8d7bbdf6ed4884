class mrtest_svcbase {
  Service { provider => 'systemd' }
  package { 'mrtest-redis': }
  service { 'mrtest-redis': ensure => running }
  Package['mrtest-redis'] -> Service['mrtest-redis']
}
class mrtest_svccluster inherits mrtest_svcbase {
  Service['mrtest-redis'] { enable => true }
  service { 'mrtest-sentinel': ensure => running, require => Service['mrtest-redis'] }
}
include mrtest_svccluster
