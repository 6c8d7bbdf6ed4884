# PHP with FPM (php), extensions and php.ini settings, and an FPM pool
# (php::fpm::pool) listening on a socket.
class { 'php':
  manage_repos => false,
  fpm          => true,
  composer     => false,
  dev          => false,
  extensions   => {
    'curl'     => {},
    'mbstring' => {},
    'intl'     => {},
  },
  settings     => {
    'PHP/memory_limit'        => '256M',
    'PHP/upload_max_filesize' => '32M',
    'Date/date.timezone'      => 'UTC',
  },
}
php::fpm::pool { 'mrtest-app':
  listen          => '/run/php/mrtest-app.sock',
  listen_owner    => 'www-data',
  listen_group    => 'www-data',
  pm              => 'dynamic',
  pm_max_children => 20,
  php_admin_value => { 'error_log' => '/var/log/php/mrtest-app.log' },
}
