# A custom chain for a service (firewallchain), traffic sent to it from
# INPUT, rules inside it with inversion and logging, and the INPUT policy
# set to drop.
firewallchain { 'MRTEST_APP:filter:IPv4':
  ensure => present,
}
firewallchain { 'INPUT:filter:IPv4':
  ensure => present,
  policy => drop,
}
firewall { '100 forward to MRTEST_APP':
  chain => 'INPUT',
  proto => 'tcp',
  dport => '5000-5010',
  jump  => 'MRTEST_APP',
}
firewall { '100 mrtest app from the lan':
  chain  => 'MRTEST_APP',
  proto  => 'tcp',
  dport  => 5000,
  source => '192.0.2.0/24',
  jump   => 'accept',
}
firewall { '110 log the rest':
  chain      => 'MRTEST_APP',
  proto      => 'tcp',
  limit      => '5/min',
  log_prefix => 'mrtest-app-drop: ',
  log_level  => 'warn',
  jump       => 'LOG',
}
firewall { '120 drop external not from 10/8':
  chain  => 'MRTEST_APP',
  proto  => 'tcp',
  source => '! 10.0.0.0/8',
  jump   => 'drop',
}
