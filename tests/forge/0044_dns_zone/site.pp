# A BIND server with a forward zone and a reverse zone.
include dns
dns::zone { 'example.com':
  soa     => 'ns1.example.com',
  contact => 'hostmaster.example.com',
}
dns::zone { '2.0.192.in-addr.arpa':
  reverse => true,
}
