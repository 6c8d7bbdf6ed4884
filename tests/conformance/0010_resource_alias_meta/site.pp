file { '/tmp/mrtest-long/path/to/app.conf':
  ensure => file,
  alias  => 'mrtest-appconf',
}
notify { 'mrtest-after':
  require => File['mrtest-appconf'],
}
