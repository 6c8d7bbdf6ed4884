# PHP's command line only (no FPM), with CLI settings, PEAR and an
# extension with its own settings.
class { 'php':
  manage_repos => false,
  fpm          => false,
  composer     => false,
  pear         => true,
  cli_settings => {
    'PHP/memory_limit'       => '-1',
    'PHP/max_execution_time' => '0',
  },
  extensions   => {
    'xml'   => {},
    'mysql' => { 'settings' => { 'mysqli/mysqli.allow_persistent' => 'Off' } },
  },
}
