file { ['/tmp/a', '/tmp/b']:
  ensure => file,
}
