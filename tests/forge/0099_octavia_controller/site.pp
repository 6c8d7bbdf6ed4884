# Octavia load balancing: API, worker, health manager and housekeeping,
# with the service credentials used to boot amphorae.
class { 'octavia::db':
  database_connection => 'mysql+pymysql://octavia:mrtest-octavia-db@127.0.0.1/octavia',
}
class { 'octavia':
  default_transport_url => 'rabbit://octavia:mrtest-rabbit@127.0.0.1:5672/',
}
class { 'octavia::keystone::authtoken':
  password => 'mrtest-octavia-keystone',
}
class { 'octavia::service_auth':
  password => 'mrtest-octavia-keystone',
  auth_url => 'http://mrtest.example.com:5000',
}
class { 'octavia::controller':
  amp_flavor_id => '65',
  amp_image_tag => 'amphora',
  heartbeat_key => 'mrtest-heartbeat-key',
}
class { 'octavia::api':
  sync_db => true,
}
class { 'octavia::worker':
  manage_nova_flavor => false,
}
# The thread counts default to the os_workers fact, absent from the fixed facts.
class { 'octavia::health_manager':
  health_update_threads => 2,
  stats_update_threads  => 2,
}
include octavia::housekeeping
