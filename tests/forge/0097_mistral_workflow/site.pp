# Mistral workflows: API, engine, executor and event engine on a MySQL
# database.
class { 'mistral::db::mysql':
  password => 'mrtest-mistral-db',
}
class { 'mistral::db':
  database_connection => 'mysql+pymysql://mistral:mrtest-mistral-db@127.0.0.1/mistral',
}
class { 'mistral':
  default_transport_url => 'rabbit://mistral:mrtest-rabbit@127.0.0.1:5672/',
}
class { 'mistral::keystone::authtoken':
  password => 'mrtest-mistral-keystone',
}
include mistral::api
include mistral::engine
include mistral::executor
include mistral::event_engine
