# An ISC DHCP server (dhcp) on one interface, with a pool (dhcp::pool) and
# fixed-address hosts (dhcp::host).
class { 'dhcp':
  interfaces  => ['eth1'],
  dnsdomain   => ['lan.example.com'],
  nameservers => ['192.168.50.1'],
  ntpservers  => ['192.168.50.1'],
}
dhcp::pool { 'lan.example.com':
  network => '192.168.50.0',
  mask    => '255.255.255.0',
  range   => ['192.168.50.100 192.168.50.200'],
  gateway => '192.168.50.1',
}
dhcp::host { 'mrtest-printer':
  mac     => '52:54:00:aa:bb:01',
  ip      => '192.168.50.20',
  comment => 'office printer',
}
