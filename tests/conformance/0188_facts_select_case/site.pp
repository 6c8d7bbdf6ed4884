case $facts['os']['name'] {
  'Debian', 'Ubuntu': {
    $service = 'mrtest-ssh'
    $config  = '/tmp/mrtest-ssh/sshd_config'
  }
  /^(RedHat|CentOS|Rocky)$/: {
    $service = 'mrtest-sshd'
    $config  = '/tmp/mrtest-sshd/sshd_config'
  }
  default: {
    fail('unsupported')
  }
}
service { $service: ensure => running }
file { $config: ensure => file, notify => Service[$service] }
