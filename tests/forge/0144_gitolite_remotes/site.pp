# A gitolite server whose users come from a hash, with a mirrored
# repository whose remote is kept by the module's gitremote type.
class { 'gitolite':
  user      => 'git',
  userhome  => '/srv/mrtest-git',
  admin_key => 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMrtestadminkeyexample mrtest-admin',
}
gitolite::users { 'mrtest-team':
  users => {
    'mrtest-carol' => { 'keys' => ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMrtestcarolkeyexample carol@example.com'] },
    'mrtest-dave'  => { 'keys' => ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMrtestdavekeyexample dave@example.com'] },
  },
}
gitolite::repo { 'mrtest-mirror':
  rules   => { 'R' => ['@all'] },
  remotes => {
    'upstream' => {
      'url' => 'https://git.example.com/upstream.git',
    },
  },
}
