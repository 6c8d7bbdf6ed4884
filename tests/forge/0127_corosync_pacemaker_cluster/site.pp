# A two-node Corosync/Pacemaker cluster over unicast with an authkey,
# votequorum, and a floating IP address managed as a cluster resource.
class { 'corosync':
  authkey_source    => 'string',
  authkey           => 'mrtest-corosync-authkey-0123456789abcdef0123456789abcdef',
  bind_address      => '192.0.2.31',
  cluster_name      => 'mrtest-cluster',
  unicast_addresses => ['192.0.2.31', '192.0.2.32'],
  set_votequorum    => true,
  quorum_members    => ['192.0.2.31', '192.0.2.32'],
  enable_secauth    => true,
}
cs_property { 'stonith-enabled':
  value => 'false',
}
cs_property { 'no-quorum-policy':
  value => 'ignore',
}
cs_primitive { 'mrtest_vip':
  primitive_class => 'ocf',
  primitive_type  => 'IPaddr2',
  provided_by     => 'heartbeat',
  parameters      => { 'ip' => '192.0.2.30', 'cidr_netmask' => '24' },
  operations      => { 'monitor' => { 'interval' => '10s' } },
}
cs_primitive { 'mrtest_haproxy':
  primitive_class => 'systemd',
  primitive_type  => 'haproxy',
  operations      => { 'monitor' => { 'interval' => '10s' } },
}
cs_colocation { 'mrtest_vip_with_haproxy':
  primitives => ['mrtest_vip', 'mrtest_haproxy'],
}
cs_order { 'mrtest_vip_before_haproxy':
  first  => 'mrtest_vip',
  second => 'mrtest_haproxy',
}
