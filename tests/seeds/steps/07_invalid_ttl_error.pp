dns_resource { 'www.mrtest.example/A':
  nameserver => '127.0.0.2',
  rdata      => '192.0.2.10',
  ttl        => 'one day',
}
