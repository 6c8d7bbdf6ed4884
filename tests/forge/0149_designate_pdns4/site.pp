# Designate with a PowerDNS 4 backend driven through its HTTP API, and the
# worker and mini-DNS services that push zones to it.
class { 'designate':
  default_transport_url => 'rabbit://designate:mrtest-rabbit@127.0.0.1:5672/',
}
class { 'designate::db':
  database_connection => 'mysql+pymysql://designate:mrtest-designate-db@127.0.0.1/designate',
}
class { 'designate::keystone::authtoken':
  password => 'mrtest-designate-keystone',
}
include designate::api
include designate::central
include designate::worker
include designate::mdns
class { 'designate::backend::pdns4':
  api_token    => 'mrtest-pdns-api-token',
  api_endpoint => 'http://192.0.2.53:8081',
  pdns4_hosts  => ['192.0.2.53'],
  mdns_hosts   => ['192.0.2.1'],
}
