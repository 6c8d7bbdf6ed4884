class mrtest_ubase {
  file { '/tmp/mrtest-undef':
    ensure => file,
    mode   => '0644',
    owner  => 'root',
  }
}
class mrtest_uchild inherits mrtest_ubase {
  File['/tmp/mrtest-undef'] { mode => undef }
}
include mrtest_uchild
