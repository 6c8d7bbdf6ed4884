vcsrepo { '/tmp/mrtest-rbtypes/clone':
  ensure   => absent,
  provider => git,
}
