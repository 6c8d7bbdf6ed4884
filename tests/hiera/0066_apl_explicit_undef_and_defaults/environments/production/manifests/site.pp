class { 'app':
  port      => 9000,
  workers   => undef,
  log_level => 'debug',
}
app::instance { 'one': }
