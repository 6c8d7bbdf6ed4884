class { 'apache':
  port    => 80,
  docroot => '/var/www',
}
