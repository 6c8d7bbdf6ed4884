# An OVN chassis on a gateway node: the controller with its bridge
# mappings, mapped to a physical interface, and transport zones.
class { 'ovn::controller':
  ovn_remote                => 'tcp:192.0.2.1:6642',
  ovn_encap_ip              => '192.0.2.11',
  ovn_encap_type            => 'geneve',
  ovn_bridge_mappings       => ['physnet1:br-ex'],
  bridge_interface_mappings => ['br-ex:eth1'],
  ovn_cms_options           => 'enable-chassis-as-gw',
  ovn_transport_zones       => ['tz1'],
}
