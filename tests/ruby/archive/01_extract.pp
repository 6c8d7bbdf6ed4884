# The README's first use: an archive downloaded (here from a file: URL),
# extracted where `creates` is missing, and cleaned up.
file { ['/tmp/mrtest-rbtypes', '/tmp/mrtest-rbtypes/src', '/tmp/mrtest-rbtypes/src/content', '/tmp/mrtest-rbtypes/dest']:
  ensure => directory,
}
file { '/tmp/mrtest-rbtypes/src/content/hello.txt': content => "hello\n" }
exec { 'pack':
  command => 'tar -C /tmp/mrtest-rbtypes/src -czf /tmp/mrtest-rbtypes/src/payload.tar.gz content',
  path    => ['/usr/bin', '/bin'],
  creates => '/tmp/mrtest-rbtypes/src/payload.tar.gz',
  require => File['/tmp/mrtest-rbtypes/src/content/hello.txt'],
}
archive { '/tmp/mrtest-rbtypes/dest/payload.tar.gz':
  ensure       => present,
  source       => 'file:///tmp/mrtest-rbtypes/src/payload.tar.gz',
  extract      => true,
  extract_path => '/tmp/mrtest-rbtypes/dest',
  creates      => '/tmp/mrtest-rbtypes/dest/content',
  cleanup      => true,
  require      => [Exec['pack'], File['/tmp/mrtest-rbtypes/dest']],
}
