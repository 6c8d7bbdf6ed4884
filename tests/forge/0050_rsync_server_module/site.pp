# An rsync daemon serving one module.
class { 'rsync::server':
  use_xinetd => false,
}
rsync::server::module { 'repo':
  path    => '/var/www/repo',
  require => File['/var/www/repo'],
  read_only => 'yes',
  hosts_allow => ['192.0.2.0/24'],
}
file { '/var/www/repo': ensure => directory }
