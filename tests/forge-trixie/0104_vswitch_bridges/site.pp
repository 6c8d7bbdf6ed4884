# Open vSwitch with an external bridge holding a physical port, and a
# setting of the Open_vSwitch table. vswitch 21 takes the package and
# service names from module data that Debian 13's package does not ship,
# so they are given here.
class { 'vswitch::ovs':
  package_name      => 'openvswitch-switch',
  service_name      => 'openvswitch-switch',
  enable_hw_offload => false,
}
vs_bridge { 'br-mrtest':
  ensure => present,
}
vs_port { 'eth1':
  ensure => present,
  bridge => 'br-mrtest',
}
vs_config { 'external_ids:mrtest-id':
  value => 'mrtest',
}
