# The same again: nothing to do.
file { '/tmp/mrtest-rbtypes': ensure => directory }
vcsrepo { '/tmp/mrtest-rbtypes/origin':
  ensure   => present,
  provider => git,
  require  => File['/tmp/mrtest-rbtypes'],
}
