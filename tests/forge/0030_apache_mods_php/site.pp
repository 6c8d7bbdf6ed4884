# Apache with the prefork MPM, PHP and rewrite modules.
class { 'apache':
  mpm_module => 'prefork',
}
include apache::mod::php
include apache::mod::rewrite
apache::vhost { 'php.example.com':
  port     => 80,
  docroot  => '/var/www/php',
  rewrites => [{ 'rewrite_rule' => ['^index\.html$ welcome.html'] }],
}
