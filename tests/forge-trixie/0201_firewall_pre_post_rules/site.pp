# The README's whitelist setup with firewall 8's jump/proto forms: default
# rules first, application ports, a final drop, unmanaged rules purged.
resources { 'firewall':
  purge => true,
}
class { 'firewall': }
firewall { '000 accept all icmp':
  proto => 'icmp',
  jump  => 'accept',
}
-> firewall { '001 accept all to lo interface':
  proto   => 'all',
  iniface => 'lo',
  jump    => 'accept',
}
-> firewall { '002 reject local traffic not on loopback interface':
  iniface     => '! lo',
  proto       => 'all',
  destination => '127.0.0.1/8',
  jump        => 'reject',
}
-> firewall { '003 accept related established rules':
  proto => 'all',
  state => ['RELATED', 'ESTABLISHED'],
  jump  => 'accept',
}
-> firewall { '100 allow http and https access':
  dport => [80, 443],
  proto => 'tcp',
  jump  => 'accept',
}
-> firewall { '101 allow ssh from the admin network':
  dport  => 22,
  proto  => 'tcp',
  source => '192.0.2.0/24',
  state  => 'NEW',
  jump   => 'accept',
}
-> firewall { '999 drop all':
  proto => 'all',
  jump  => 'drop',
}
