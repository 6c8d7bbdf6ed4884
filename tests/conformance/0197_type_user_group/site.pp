group { 'mrtest-group': ensure => present, gid => '5100', system => true }
user { 'mrtest-user':
  ensure     => present,
  uid        => 5100,
  gid        => 'mrtest-group',
  groups     => ['mrtest-a', 'mrtest-b'],
  home       => '/tmp/mrtest-home',
  managehome => true,
  shell      => '/bin/bash',
  password   => '!',
  purge_ssh_keys => true,
  expiry     => absent,
}
