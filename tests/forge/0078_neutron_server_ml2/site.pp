# A Neutron server with the ML2 plugin for VXLAN tenant networks over
# Open vSwitch, talking to Nova about port changes.
class { 'neutron':
  default_transport_url => 'rabbit://neutron:mrtest-rabbit@127.0.0.1:5672/',
  service_plugins       => ['router'],
}
class { 'neutron::db':
  database_connection => 'mysql+pymysql://neutron:mrtest-neutron-db@127.0.0.1/neutron?charset=utf8',
}
class { 'neutron::keystone::authtoken':
  password => 'mrtest-neutron-keystone',
}
class { 'neutron::server':
  sync_db => true,
}
class { 'neutron::plugins::ml2':
  type_drivers         => ['flat', 'vxlan'],
  tenant_network_types => ['vxlan'],
  mechanism_drivers    => ['openvswitch', 'l2population'],
  vni_ranges           => ['1000:2000'],
}
class { 'neutron::server::notifications::nova':
  password => 'mrtest-nova-keystone',
}
