# purge_ssh_keys: the keys of the user's files that no ssh_authorized_key
# of the catalog manages are removed (named by their comment, or as
# FILE:unnamed-N), the managed one stays, and a path with %h reaches the
# home.
user { 'mrtest-purgekey':
  ensure         => present,
  home           => '/tmp/mrtest-apply/home/mrtest-purgekey',
  purge_ssh_keys => ['~/.ssh/authorized_keys', '%h/.ssh/extra_keys'],
}
ssh_authorized_key { 'keep@example.com':
  user => 'mrtest-purgekey',
  type => 'ssh-ed25519',
  key  => 'AAAAC3NzaC1lZDI1NTE5AAAAkeep',
}
