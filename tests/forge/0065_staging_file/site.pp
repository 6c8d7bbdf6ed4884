# A file staged from a URL and extracted (nanliu-staging, a dependency of other modules).
class { 'staging':
  path  => '/opt/staging',
  owner => 'root',
  group => 'root',
}
staging::file { 'sample.tar.gz':
  source => 'http://example.com/sample.tar.gz',
}
staging::extract { 'sample.tar.gz':
  target  => '/opt/sample',
  creates => '/opt/sample/README',
  require => Staging::File['sample.tar.gz'],
}
