class mrtest_base {
  file { '/tmp/mrtest-ov':
    ensure => file,
    mode   => '0644',
    owner  => 'root',
  }
  service { 'mrtest-ov-svc': ensure => running }
}
class mrtest_child inherits mrtest_base {
  File['/tmp/mrtest-ov'] {
    mode  => '0600',
    group => 'mrtest-grp',
  }
  Service['mrtest-ov-svc'] { ensure => stopped }
}
include mrtest_child
