file { ['/tmp/mrtest-dir-a', '/tmp/mrtest-dir-b', '/tmp/mrtest-dir-c']:
  ensure => directory,
  mode   => '0755',
}
