# Routing uses: source NAT by masquerading a private network, a port
# redirect, TCP MSS clamping for VPN clients and NFLOG logging.
firewall { '100 snat for network mrtest':
  chain    => 'POSTROUTING',
  jump     => 'MASQUERADE',
  proto    => 'all',
  outiface => 'eth0',
  source   => '10.1.2.0/24',
  table    => 'nat',
}
firewall { '101 redirect port 80 to 8080':
  chain   => 'PREROUTING',
  table   => 'nat',
  proto   => 'tcp',
  dport   => 80,
  jump    => 'REDIRECT',
  toports => '8080',
}
firewall { '110 TCPMSS for VPN clients':
  chain     => 'FORWARD',
  table     => 'mangle',
  source    => '10.0.2.0/24',
  proto     => 'tcp',
  tcp_flags => 'SYN,RST SYN',
  mss       => '1361:1541',
  set_mss   => 1360,
  jump      => 'TCPMSS',
}
firewall { '666 for NFLOG':
  proto           => 'all',
  jump            => 'NFLOG',
  nflog_group     => 3,
  nflog_prefix    => 'nflog-test',
  nflog_size      => 256,
  nflog_threshold => 1,
}
