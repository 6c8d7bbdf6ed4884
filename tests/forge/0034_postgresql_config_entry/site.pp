# Server settings written to postgresql.conf.
class { 'postgresql::globals':
  encoding => 'UTF-8',
  locale   => 'en_US.UTF-8',
  version  => '15',
}
class { 'postgresql::server': }
postgresql::server::config_entry { 'check_function_bodies':
  value => 'off',
}
postgresql::server::config_entry { 'max_connections':
  value => '200',
}
