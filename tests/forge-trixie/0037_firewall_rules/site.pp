# Firewall rules with a pre and post chain policy (firewall 8 names the
# target `jump`, formerly `action`).
firewall { '000 accept all icmp':
  proto  => 'icmp',
  jump   => 'accept',
}
firewall { '001 accept all to lo interface':
  proto   => 'all',
  iniface => 'lo',
  jump    => 'accept',
}
firewall { '100 allow http and https access':
  dport  => [80, 443],
  proto  => 'tcp',
  jump   => 'accept',
}
firewall { '999 drop all':
  proto  => 'all',
  jump   => 'drop',
  before => undef,
}
firewallchain { 'INPUT:filter:IPv4':
  ensure => present,
  policy => drop,
}
