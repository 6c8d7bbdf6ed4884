# Files fetched and pushed with rsync.
rsync::get { '/foo':
  source  => "rsync://${facts['networking']['fqdn']}/repo/foo/",
  require => File['/foo'],
}
file { '/foo': ensure => directory }
rsync::put { 'backup.example.com:/srv/foo':
  user    => 'backup',
  source  => '/foo/',
  keyfile => '/root/.ssh/backup_rsa',
}
