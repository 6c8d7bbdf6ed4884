# IPv6 rules beside IPv4 ones: ip6tables chosen with `protocol`, ICMPv6
# accepted, SSH opened, and the IPv6 INPUT chain defaulting to drop.
firewall { '000 accept all icmpv6':
  proto    => 'ipv6-icmp',
  jump     => 'accept',
  protocol => 'IPv6',
}
firewall { '006 Allow inbound SSH (v6)':
  dport    => 22,
  proto    => 'tcp',
  jump     => 'accept',
  protocol => 'IPv6',
}
firewall { '007 Allow inbound DNS (v6)':
  dport    => 53,
  proto    => 'udp',
  source   => 'fd00::/64',
  jump     => 'accept',
  protocol => 'IPv6',
}
firewallchain { 'INPUT:filter:IPv6':
  ensure => present,
  policy => drop,
}
