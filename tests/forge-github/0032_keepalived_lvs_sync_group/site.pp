# keepalived's global definitions, two VRRP instances in a sync group, and
# an LVS virtual server with two real servers.
include keepalived
class { 'keepalived::global_defs':
  notification_email      => ['ops@example.com'],
  notification_email_from => 'keepalived@example.com',
  smtp_server             => 'localhost',
  router_id               => 'mrtest-lb1',
}
keepalived::vrrp::instance { 'VI_EXT':
  interface         => 'eth0',
  state             => 'BACKUP',
  virtual_router_id => 51,
  priority          => 100,
  virtual_ipaddress => ['192.0.2.101/24'],
}
keepalived::vrrp::instance { 'VI_INT':
  interface         => 'eth1',
  state             => 'BACKUP',
  virtual_router_id => 52,
  priority          => 100,
  virtual_ipaddress => ['10.0.0.101/24'],
}
keepalived::vrrp::sync_group { 'VG1':
  group => ['VI_EXT', 'VI_INT'],
}
keepalived::lvs::virtual_server { 'mrtest-web':
  ip_address          => '192.0.2.101',
  port                => 80,
  lb_algo             => 'wlc',
  lb_kind             => 'NAT',
  delay_loop          => 10,
  protocol            => 'TCP',
  collect_exported => false,
}
keepalived::lvs::real_server { 'mrtest-web1':
  virtual_server => 'mrtest-web',
  ip_address     => '10.0.0.11',
  port           => 80,
  options        => { 'weight' => 1 },
}
keepalived::lvs::real_server { 'mrtest-web2':
  virtual_server => 'mrtest-web',
  ip_address     => '10.0.0.12',
  port           => 80,
  options        => { 'weight' => 2 },
}
