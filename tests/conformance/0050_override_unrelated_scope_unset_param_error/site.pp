class mrtest_owner2 {
  file { '/tmp/mrtest-free': ensure => file }
}
class mrtest_adder {
  File['/tmp/mrtest-free'] { owner => 'root' }
}
include mrtest_owner2
include mrtest_adder
