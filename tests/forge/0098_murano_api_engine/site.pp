# Murano's application catalog: the API and engine with their database.
class { 'murano::db':
  database_connection => 'mysql+pymysql://murano:mrtest-murano-db@127.0.0.1/murano',
}
class { 'murano':
  default_transport_url => 'rabbit://murano:mrtest-rabbit@127.0.0.1:5672/',
}
class { 'murano::keystone::authtoken':
  password => 'mrtest-murano-keystone',
}
include murano::api
include murano::engine
