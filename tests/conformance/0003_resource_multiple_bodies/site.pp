file {
  '/tmp/mrtest-one':
    ensure => file,
    mode   => '0600';
  '/tmp/mrtest-two':
    ensure => directory;
  ['/tmp/mrtest-three', '/tmp/mrtest-four']:
    ensure => absent;
}
