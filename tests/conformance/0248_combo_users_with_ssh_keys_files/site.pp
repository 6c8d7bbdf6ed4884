$mrtest_users = {
  'mrtest-kim' => { 'uid' => 7001, 'keys' => ['ssh-ed25519 AAAAkim'] },
  'mrtest-lee' => { 'uid' => 7002, 'keys' => [] },
}
class profile::users (Hash $users) {
  $users.each |$login, $u| {
    user { $login: uid => $u['uid'], managehome => true, shell => '/bin/bash' }
    file { "/tmp/mrtest-keys/${login}":
      ensure  => file,
      owner   => $login,
      mode    => '0600',
      content => $u['keys'].join("\n"),
      require => User[$login],
    }
  }
}
class { 'profile::users': users => $mrtest_users }
