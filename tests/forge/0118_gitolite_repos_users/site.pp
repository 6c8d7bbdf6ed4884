# A gitolite server with its admin key, two users and repositories with
# access rules.
class { 'gitolite':
  user      => 'git',
  userhome  => '/var/lib/gitolite',
  admin_key => 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMrtestadminkeyexample mrtest-admin',
}
gitolite::user { 'mrtest-alice':
  keys   => ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMrtestalicekeyexample alice@example.com'],
  groups => ['developers'],
}
gitolite::user { 'mrtest-bob':
  keys => ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMrtestbobkeyexample bob@example.com'],
}
gitolite::repo { 'mrtest-app':
  rules       => {
    'RW+' => ['@developers'],
    'R'   => ['mrtest-bob'],
  },
  description => 'The test application',
}
gitolite::repo { 'mrtest-docs':
  rules => {
    'RW' => ['mrtest-alice', 'mrtest-bob'],
  },
}
