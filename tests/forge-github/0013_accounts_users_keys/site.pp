# accounts::user: a login user with groups, an SSH key, a locked service
# user without a home, and a removed user.
accounts::user { 'mrtest-alice':
  uid      => 4001,
  gid      => 4001,
  comment  => 'Alice Example',
  groups   => ['sudo', 'adm'],
  shell    => '/bin/bash',
  password => '!',
  sshkeys  => [
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice@example.com',
  ],
}
accounts::user { 'mrtest-svc':
  system     => true,
  managehome => false,
  home       => '/var/lib/mrtest-svc',
  shell      => '/usr/sbin/nologin',
  locked     => true,
}
accounts::user { 'mrtest-gone':
  ensure => absent,
}
