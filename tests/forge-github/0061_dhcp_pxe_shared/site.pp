# DHCP with PXE booting, lease times, an ignored subnet and a class
# matching vendors (dhcp::dhcp_class).
class { 'dhcp':
  interfaces         => ['eth1', 'eth2'],
  dnsdomain          => ['lab.example.com'],
  nameservers        => ['10.10.0.1'],
  pxeserver          => '10.10.0.5',
  pxefilename        => 'pxelinux.0',
  default_lease_time => 3600,
  max_lease_time     => 86400,
}
dhcp::pool { 'lab':
  network => '10.10.0.0',
  mask    => '255.255.255.0',
  range   => ['10.10.0.50 10.10.0.150'],
  gateway => '10.10.0.1',
}
dhcp::ignoredsubnet { 'storage':
  network => '10.20.0.0',
  mask    => '255.255.255.0',
}
dhcp::dhcp_class { 'mrtest-phones':
  parameters => ['match if substring (option vendor-class-identifier, 0, 4) = "MrTe"'],
}
