package { 'mrtest-openssh': ensure => installed }
file { '/tmp/mrtest-sshd_config':
  ensure  => file,
  require => Package['mrtest-openssh'],
  notify  => Service['mrtest-sshd'],
}
service { 'mrtest-sshd':
  ensure => running,
}
exec { 'mrtest-reload':
  command     => '/bin/true',
  refreshonly => true,
  subscribe   => File['/tmp/mrtest-sshd_config'],
  before      => Service['mrtest-sshd'],
}
