# Pacemaker resources grouped to run together, preferring one node, in a
# cluster configured by the corosync class with a multicast ring.
class { 'corosync':
  authkey_source    => 'string',
  authkey           => 'mrtest-corosync-authkey-fedcba9876543210fedcba9876543210',
  bind_address      => '192.0.2.0',
  multicast_address => '239.1.1.2',
  enable_secauth    => true,
}
cs_primitive { 'mrtest_ip':
  primitive_class => 'ocf',
  primitive_type  => 'IPaddr2',
  provided_by     => 'heartbeat',
  parameters      => { 'ip' => '192.0.2.35' },
}
cs_primitive { 'mrtest_web':
  primitive_class => 'systemd',
  primitive_type  => 'apache2',
}
cs_group { 'mrtest_webgroup':
  primitives => ['mrtest_ip', 'mrtest_web'],
}
cs_location { 'mrtest_webgroup_prefers_node1':
  primitive => 'mrtest_webgroup',
  node_name => 'node1.example.com',
  score     => '100',
}
cs_rsc_defaults { 'resource-stickiness':
  value => '100',
}
