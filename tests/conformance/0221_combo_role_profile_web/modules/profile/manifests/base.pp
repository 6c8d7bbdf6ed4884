class profile::base {
  package { ['mrtest-vim', 'mrtest-curl']: ensure => installed }
  file { '/tmp/mrtest-motd':
    ensure  => file,
    content => "Host ${facts['networking']['fqdn']}\n",
  }
}
