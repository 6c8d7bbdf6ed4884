class mrtest_owner {
  file { '/tmp/mrtest-taken': ensure => file, mode => '0644' }
}
class mrtest_intruder {
  File['/tmp/mrtest-taken'] { mode => '0600' }
}
include mrtest_owner
include mrtest_intruder
