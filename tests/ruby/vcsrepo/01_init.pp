# A repository made from nothing, as vcsrepo's README starts.
file { '/tmp/mrtest-rbtypes': ensure => directory }
vcsrepo { '/tmp/mrtest-rbtypes/origin':
  ensure   => present,
  provider => git,
  require  => File['/tmp/mrtest-rbtypes'],
}
exec { 'first commit':
  command => 'git -c user.name=mrtest -c user.email=mrtest@example.com commit --allow-empty -q -m first',
  cwd     => '/tmp/mrtest-rbtypes/origin',
  path    => ['/usr/local/bin', '/usr/bin', '/bin'],
  unless  => 'git rev-parse -q --verify HEAD',
  require => Vcsrepo['/tmp/mrtest-rbtypes/origin'],
}
