class mrtestsshd (Integer $port = 22) {
  package { 'mrtest-openssh-server': ensure => installed }
  file { '/tmp/mrtest-sshd_config':
    ensure  => file,
    mode    => '0644',
    content => "Port ${port}\nPermitRootLogin yes\n",
    require => Package['mrtest-openssh-server'],
  }
  service { 'mrtest-ssh':
    ensure    => running,
    subscribe => File['/tmp/mrtest-sshd_config'],
  }
}
