package { 'mrtest-pkg':
  ensure          => '1.2.3-1',
  install_options => ['--no-install-recommends', { '--target-release' => 'bookworm-backports' }],
  provider        => 'apt',
}
service { 'mrtest-svc':
  ensure     => 'running',
  enable     => true,
  hasstatus  => true,
  hasrestart => false,
  restart    => '/bin/true',
  provider   => 'systemd',
}
