# OVN: the northbound and southbound databases with northd on a central
# node, and the local controller joining it over Geneve tunnels.
class { 'ovn::northd':
  dbs_listen_ip => '192.0.2.1',
}
class { 'ovn::controller':
  ovn_remote          => 'tcp:192.0.2.1:6642',
  ovn_encap_ip        => '192.0.2.10',
  ovn_bridge_mappings => ['physnet1:br-ex'],
}
