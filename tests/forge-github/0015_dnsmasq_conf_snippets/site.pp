# dnsmasq with drop-in configuration files (dnsmasq::conf) at priorities.
include dnsmasq
dnsmasq::conf { 'mrtest-dns':
  prio    => 10,
  content => "domain-needed\nbogus-priv\nno-resolv\nserver=192.0.2.53\nlocal=/lan.example.com/\n",
}
dnsmasq::conf { 'mrtest-dhcp':
  prio    => 20,
  content => "dhcp-range=192.168.50.100,192.168.50.200,12h\ndhcp-option=option:router,192.168.50.1\n",
}
