dns_resource { 'www.mrtest.example/MX':
  nameserver => '127.0.0.2',
  rdata      => '10 mail.mrtest.example',
}
