# Murano's application catalog: the API and engine with their database.
# openstacklib ships os_service_default as an external fact (/etc/facter/facts.d),
# which the fixed facts lack: it is set at top scope, as an agent reports it.
$os_service_default = '<SERVICE DEFAULT>'
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
