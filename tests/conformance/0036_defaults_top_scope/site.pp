File {
  owner => 'root',
  group => 'root',
  mode  => '0644',
}
file { '/tmp/mrtest-df-1': ensure => file }
file { '/tmp/mrtest-df-2': ensure => file, mode => '0600' }
