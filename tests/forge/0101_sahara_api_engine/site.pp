# Sahara data processing: API and engine, using floating IPs for the
# clusters it boots.
class { 'sahara::db::mysql':
  password => 'mrtest-sahara-db',
}
class { 'sahara::db':
  database_connection => 'mysql+pymysql://sahara:mrtest-sahara-db@127.0.0.1/sahara',
}
class { 'sahara':
  host             => '0.0.0.0',
  port             => 8386,
  use_floating_ips => true,
}
class { 'sahara::keystone::authtoken':
  password => 'mrtest-sahara-keystone',
}
include sahara::service::api
include sahara::service::engine
class { 'sahara::keystone::auth':
  password => 'mrtest-sahara-keystone',
}
