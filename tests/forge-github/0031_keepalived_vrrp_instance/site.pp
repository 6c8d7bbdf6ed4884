# keepalived with a health-check script and a VRRP instance holding a
# floating address, tracking the script.
include keepalived
keepalived::vrrp::script { 'check_nginx':
  script   => '/usr/bin/pgrep nginx',
  interval => 2,
  weight   => 2,
}
keepalived::vrrp::instance { 'VI_50':
  interface         => 'eth0',
  state             => 'MASTER',
  virtual_router_id => 50,
  priority          => 101,
  auth_type         => 'PASS',
  auth_pass         => 'mrtest-secret',
  virtual_ipaddress => ['192.0.2.100/24'],
  track_script      => ['check_nginx'],
}
