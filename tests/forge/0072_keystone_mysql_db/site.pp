# A Keystone identity service backed by a local MySQL server: the
# database and its grants, the connection string and the bootstrap of the
# admin project, user and endpoints.
class { 'mysql::server': }
class { 'keystone::db::mysql':
  password => 'mrtest-keystone-db',
}
class { 'keystone::db':
  database_connection => 'mysql+pymysql://keystone:mrtest-keystone-db@127.0.0.1/keystone',
}
class { 'keystone':
  token_provider => 'fernet',
  enabled        => true,
}
class { 'keystone::bootstrap':
  password   => 'mrtest-admin-secret',
  public_url => 'http://mrtest.example.com:5000',
  region     => 'RegionOne',
}
