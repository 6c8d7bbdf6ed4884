# A Neutron server whose ML2 mechanism is OVN, talking to the OVN
# northbound and southbound databases.
class { 'neutron':
  default_transport_url => 'rabbit://neutron:mrtest-rabbit@127.0.0.1:5672/',
  service_plugins       => ['ovn-router'],
}
class { 'neutron::keystone::authtoken':
  password => 'mrtest-neutron-keystone',
}
include neutron::server
class { 'neutron::plugins::ml2':
  type_drivers         => ['geneve', 'flat'],
  tenant_network_types => ['geneve'],
  mechanism_drivers    => ['ovn'],
}
class { 'neutron::plugins::ml2::ovn':
  ovn_nb_connection => 'tcp:192.0.2.1:6641',
  ovn_sb_connection => 'tcp:192.0.2.1:6642',
}
