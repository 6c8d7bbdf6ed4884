class mrtestdup {
  file { '/tmp/mrtest-conflict':
    ensure => directory,
  }
}
