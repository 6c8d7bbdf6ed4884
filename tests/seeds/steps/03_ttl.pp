dns_resource { 'www.mrtest.example/A':
  nameserver => '127.0.0.2',
  rdata      => '192.0.2.10',
  ttl        => '7200',
}
dns_resource { 'alias.mrtest.example/CNAME':
  nameserver => '127.0.0.2',
  rdata      => 'www.mrtest.example',
}
