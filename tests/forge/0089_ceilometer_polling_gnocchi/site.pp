# Ceilometer collecting telemetry: the notification agent publishing to
# Gnocchi and the central polling agent, with its service credentials.
class { 'ceilometer':
  telemetry_secret      => 'mrtest-telemetry-secret',
  default_transport_url => 'rabbit://ceilometer:mrtest-rabbit@127.0.0.1:5672/',
}
class { 'ceilometer::agent::service_credentials':
  password    => 'mrtest-ceilometer-keystone',
  auth_url    => 'http://mrtest.example.com:5000/v3',
  region_name => 'RegionOne',
}
class { 'ceilometer::agent::notification':
  pipeline_publishers => ['gnocchi://'],
}
class { 'ceilometer::agent::polling':
  compute_namespace => false,
  ipmi_namespace    => false,
}
class { 'ceilometer::keystone::auth':
  password => 'mrtest-ceilometer-keystone',
}
