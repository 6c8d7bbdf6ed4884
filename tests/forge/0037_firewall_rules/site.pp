# Firewall rules with a pre and post chain policy.
firewall { '000 accept all icmp':
  proto  => 'icmp',
  action => 'accept',
}
firewall { '001 accept all to lo interface':
  proto   => 'all',
  iniface => 'lo',
  action  => 'accept',
}
firewall { '100 allow http and https access':
  dport  => [80, 443],
  proto  => 'tcp',
  action => 'accept',
}
firewall { '999 drop all':
  proto  => 'all',
  action => 'drop',
  before => undef,
}
firewallchain { 'INPUT:filter:IPv4':
  ensure => present,
  policy => drop,
}
