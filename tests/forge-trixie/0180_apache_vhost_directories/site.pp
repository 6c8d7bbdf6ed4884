# A virtual host with several container blocks from `directories`: the
# document root with its options and overrides, a Location restricted by
# address, and a FilesMatch hiding editor backups.
class { 'apache':
  default_vhost => false,
}
apache::vhost { 'mrtest-dirs.example.com':
  port        => 80,
  docroot     => '/srv/mrtest-www/dirs',
  directories => [
    {
      'path'           => '/srv/mrtest-www/dirs',
      'provider'       => 'directory',
      'options'        => ['-Indexes', '+FollowSymLinks'],
      'allow_override' => ['All'],
      'require'        => 'all granted',
      'directoryindex' => 'index.html index.php',
    },
    {
      'path'     => '/private',
      'provider' => 'location',
      'require'  => {
        'enforce'  => 'any',
        'requires' => ['ip 192.0.2.0/24', 'ip 127.0.0.1'],
      },
    },
    {
      'path'     => '(\.swp|\.bak|~)$',
      'provider' => 'filesmatch',
      'require'  => 'all denied',
    },
  ],
}
