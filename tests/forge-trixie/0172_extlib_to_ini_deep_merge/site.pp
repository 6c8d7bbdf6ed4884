# An INI file rendered from a hash with extlib::to_ini, and file resources
# built from data merged with defaults by extlib::resources_deep_merge.
$settings = {
  'main'     => {
    'log_level' => 'info',
    'workers'   => 4,
    'debug'     => false,
  },
  'database' => {
    'host' => 'db.example.com',
    'port' => 5432,
  },
}
file { '/etc/mrtest-app.ini':
  ensure  => file,
  content => extlib::to_ini($settings),
}
file { '/etc/mrtest-app-unquoted.ini':
  ensure  => file,
  content => extlib::to_ini($settings, {
    'header'            => '; managed',
    'key_val_separator' => ' = ',
    'quote_booleans'    => false,
    'quote_numerics'    => false,
  }),
}

$defaults = {
  'ensure' => 'file',
  'owner'  => 'root',
  'mode'   => '0644',
}
$files = {
  '/etc/mrtest-motd'   => { 'content' => "Welcome\n" },
  '/etc/mrtest-secret' => { 'content' => "s3cret\n", 'mode' => '0600' },
}
$merged = extlib::resources_deep_merge($files, $defaults)
create_resources('file', $merged)
