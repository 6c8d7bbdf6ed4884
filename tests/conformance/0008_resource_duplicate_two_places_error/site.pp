class mrtest_one {
  file { '/tmp/mrtest-shared': ensure => file }
}
class mrtest_two {
  file { '/tmp/mrtest-shared': ensure => directory }
}
include mrtest_one
include mrtest_two
