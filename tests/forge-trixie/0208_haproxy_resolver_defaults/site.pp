# Servers discovered through DNS: a resolvers section, a named defaults
# section, and a backend under it filled by a server-template member.
include haproxy
haproxy::resolver { 'mrtest-dns':
  collect_exported      => false,
  nameservers           => {
    'dns1' => '192.0.2.53:53',
    'dns2' => '192.0.2.54:53',
  },
  resolve_retries       => 3,
  timeout               => {
    'resolve' => '1s',
    'retry'   => '1s',
  },
  hold                  => {
    'other'    => '30s',
    'refused'  => '30s',
    'nx'       => '30s',
    'timeout'  => '30s',
    'valid'    => '10s',
    'obsolete' => '30s',
  },
  accepted_payload_size => 8192,
}
haproxy::defaults { 'mrtest-http-defaults':
  options => {
    'mode'    => 'http',
    'timeout' => ['connect 5s', 'client 30s', 'server 30s'],
    'option'  => ['httplog'],
  },
}
haproxy::backend { 'mrtest-dynamic':
  collect_exported => false,
  defaults         => 'mrtest-http-defaults',
  options          => {
    'balance' => 'roundrobin',
  },
}
haproxy::balancermember { 'mrtest-dynamic-servers':
  listening_service => 'mrtest-dynamic',
  type              => 'server-template',
  prefix            => 'mrtest-srv',
  amount            => '1-5',
  fqdn              => '_http._tcp.mrtest-app.example.com',
  defaults          => 'mrtest-http-defaults',
  options           => ['check', 'resolvers mrtest-dns', 'init-addr none'],
}
