class { 'profile::firewall':
  rules => {
    '100 ssh'  => { 'port' => 22, 'proto' => 'tcp' },
    '200 http' => { 'port' => 80 },
    '300 dns'  => { 'port' => 53, 'proto' => 'udp' },
  },
}
