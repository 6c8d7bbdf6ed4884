# Gnocchi's metric API and metricd storing measures on the local file
# system, with its Keystone endpoints and a statsd daemon.
class { 'gnocchi::keystone::auth':
  password   => 'mrtest-gnocchi-keystone',
  public_url => 'http://mrtest.example.com:8041',
  region     => 'RegionOne',
}
class { 'gnocchi::db':
  database_connection => 'mysql+pymysql://gnocchi:mrtest-gnocchi-db@127.0.0.1/gnocchi?charset=utf8',
}
include gnocchi
class { 'gnocchi::keystone::authtoken':
  password => 'mrtest-gnocchi-keystone',
}
class { 'gnocchi::api':
  sync_db => true,
}
include gnocchi::metricd
class { 'gnocchi::storage::file':
  file_basepath => '/var/lib/gnocchi',
}
class { 'gnocchi::statsd':
  resource_id         => '07f26121-5777-48ba-8a0b-d70468133dd9',
  archive_policy_name => 'high',
  flush_delay         => 100,
}
