class mrtest_pbase {
  file { '/tmp/mrtest-pa': ensure => file, require => Package['mrtest-p1'] }
  package { ['mrtest-p1', 'mrtest-p2']: }
  user { 'mrtest-pa': groups => ['mrtest-a'] }
}
class mrtest_pchild inherits mrtest_pbase {
  File['/tmp/mrtest-pa'] { require +> Package['mrtest-p2'] }
  User['mrtest-pa'] { groups +> ['mrtest-b', 'mrtest-c'] }
}
include mrtest_pchild
