class mrtest_fw_base {
  service { 'mrtest-fw': ensure => running, enable => true, hasstatus => true }
  file { '/tmp/mrtest-fw.rules': ensure => file, notify => Service['mrtest-fw'] }
  file { '/tmp/mrtest-fw.extra': ensure => file }
}
class mrtest_fw_custom inherits mrtest_fw_base {
  Service['mrtest-fw'] { hasstatus => undef }
  File['/tmp/mrtest-fw.rules'] { notify +> Exec['mrtest-fw-reload'], mode => '0600' }
  exec { 'mrtest-fw-reload': command => '/bin/true', refreshonly => true }
}
include mrtest_fw_custom
