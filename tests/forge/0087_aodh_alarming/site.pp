# Aodh alarming: the API under Apache's mod_wsgi, the evaluator, notifier
# and listener, with the credentials they use to read metrics.
class { 'aodh::db':
  database_connection => 'mysql+pymysql://aodh:mrtest-aodh-db@127.0.0.1/aodh?charset=utf8',
}
class { 'aodh':
  default_transport_url => 'rabbit://aodh:mrtest-rabbit@127.0.0.1:5672/',
}
class { 'aodh::keystone::authtoken':
  password => 'mrtest-aodh-keystone',
}
class { 'aodh::api':
  service_name => 'httpd',
}
include apache
class { 'aodh::wsgi::apache':
  ssl => false,
}
class { 'aodh::service_credentials':
  password => 'mrtest-aodh-keystone',
  auth_url => 'http://mrtest.example.com:5000/v3',
}
include aodh::evaluator
include aodh::notifier
include aodh::listener
include aodh::client
