archive { '/tmp/mrtest-rbtypes/dest/payload.tar.gz':
  ensure       => present,
  source       => 'file:///tmp/mrtest-rbtypes/src/payload.tar.gz',
  extract      => true,
  extract_path => '/tmp/mrtest-rbtypes/dest',
  creates      => '/tmp/mrtest-rbtypes/dest/content',
  cleanup      => true,
}
