vcsrepo { '/tmp/mrtest-rbtypes/clone':
  ensure   => present,
  provider => git,
  source   => '/tmp/mrtest-rbtypes/origin',
}
