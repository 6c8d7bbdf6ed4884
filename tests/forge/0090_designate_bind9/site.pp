# Designate DNS-as-a-service with its API, central service and a BIND 9
# pool backend, on a MySQL database.
class { 'designate::db::mysql':
  password => 'mrtest-designate-db',
}
class { 'designate::db':
  database_connection => 'mysql+pymysql://designate:mrtest-designate-db@127.0.0.1/designate',
}
class { 'designate':
  default_transport_url => 'rabbit://designate:mrtest-rabbit@127.0.0.1:5672/',
}
class { 'designate::keystone::authtoken':
  password => 'mrtest-designate-keystone',
}
class { 'designate::api':
  listen => '0.0.0.0:9001',
}
include designate::central
include designate::producer
include designate::worker
include designate::mdns
class { 'designate::backend::bind9':
  ns_records     => { 1 => 'ns1.example.com.' },
  nameservers    => ['192.0.2.53'],
  bind9_hosts    => ['192.0.2.53'],
  configure_bind => false,
}
