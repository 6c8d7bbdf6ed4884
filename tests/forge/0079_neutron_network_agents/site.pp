# A Neutron network node: the Open vSwitch agent with VXLAN tunnels and a
# provider bridge, and the DHCP, L3 and metadata agents.
class { 'neutron':
  default_transport_url => 'rabbit://neutron:mrtest-rabbit@controller.example.com:5672/',
}
class { 'neutron::agents::ml2::ovs':
  local_ip        => '192.0.2.20',
  tunnel_types    => ['vxlan'],
  bridge_mappings => ['physnet1:br-ex'],
  l2_population   => true,
}
class { 'neutron::agents::dhcp':
  enable_isolated_metadata => true,
}
class { 'neutron::agents::l3': }
class { 'neutron::agents::metadata':
  shared_secret => 'mrtest-metadata-secret',
  metadata_host => 'controller.example.com',
}
