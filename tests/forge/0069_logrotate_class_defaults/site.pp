# The logrotate class with its base configuration.
class { 'logrotate::base': }
logrotate::rule { 'app':
  path         => '/var/log/app/*.log',
  rotate       => '14',
  rotate_every => 'day',
  dateext      => true,
  create       => true,
  create_mode  => '0640',
  create_owner => 'app',
  create_group => 'adm',
}
