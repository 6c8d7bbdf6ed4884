file { 'mrtest-by-title':
  ensure => file,
  path   => '/tmp/mrtest-same',
}
file { '/tmp/mrtest-same':
  ensure => file,
}
