# A file the INI model cannot read fails the resource reading it.
file { '/tmp/mrtest-rbtypes/broken.ini':
  ensure  => file,
  content => "key=outside\n",
}
mrtest_ini { 'any/key':
  ensure  => present,
  path    => '/tmp/mrtest-rbtypes/broken.ini',
  value   => 'x',
  require => File['/tmp/mrtest-rbtypes/broken.ini'],
}
