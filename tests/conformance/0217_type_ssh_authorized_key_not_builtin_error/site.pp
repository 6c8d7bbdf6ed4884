ssh_authorized_key { 'mrtest@example':
  ensure => present,
  user   => 'mrtest-user',
  type   => 'ssh-ed25519',
  key    => 'AAAAC3NzaC1lZDI1NTE5AAAAIMrtestMrtestMrtestMrtestMrtestMrtestMrtest',
}
