dns_resource { ['www.mrtest.example/A', 'alias.mrtest.example/CNAME']:
  ensure     => absent,
  nameserver => '127.0.0.2',
}
