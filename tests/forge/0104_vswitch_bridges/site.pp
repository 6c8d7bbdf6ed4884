# Open vSwitch with an external bridge holding a physical port, and a
# setting of the Open_vSwitch table.
class { 'vswitch::ovs':
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
