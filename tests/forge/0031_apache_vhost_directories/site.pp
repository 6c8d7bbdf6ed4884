# A virtual host with directory options and aliases.
class { 'apache': default_vhost => false }
apache::vhost { 'dirs.example.com':
  port        => 80,
  docroot     => '/var/www/dirs',
  directories => [
    { 'path' => '/var/www/dirs', 'options' => ['Indexes', 'FollowSymLinks'], 'allow_override' => ['All'] },
  ],
  aliases     => [{ 'alias' => '/static', 'path' => '/srv/static' }],
  serveraliases => ['www.dirs.example.com'],
}
