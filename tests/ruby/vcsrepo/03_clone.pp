# A clone of it, as the README's second example.
vcsrepo { '/tmp/mrtest-rbtypes/clone':
  ensure   => present,
  provider => git,
  source   => '/tmp/mrtest-rbtypes/origin',
}
