# An HTTP(S) frontend terminating TLS with ordered options (ACLs before
# use_backend), and two backends with health checks and weighted members.
include haproxy
haproxy::frontend { 'mrtest-www':
  collect_exported => false,
  mode             => 'http',
  bind             => {
    '0.0.0.0:80'  => [],
    '0.0.0.0:443' => ['ssl', 'crt', '/etc/ssl/private/mrtest-www.pem', 'alpn', 'h2,http/1.1'],
  },
  options          => [
    { 'acl' => ['is_api path_beg /api/', 'is_ssl ssl_fc'] },
    { 'http-request' => ['redirect scheme https code 301 unless is_ssl'] },
    { 'use_backend' => 'mrtest-api if is_api' },
    { 'default_backend' => 'mrtest-web' },
    { 'option' => ['httplog', 'forwardfor'] },
  ],
}
haproxy::backend { 'mrtest-web':
  collect_exported => false,
  mode             => 'http',
  options          => {
    'balance'    => 'roundrobin',
    'option'     => ['httpchk GET /health'],
    'http-check' => 'expect status 200',
  },
}
haproxy::backend { 'mrtest-api':
  collect_exported => false,
  options          => {
    'balance' => 'source',
  },
}
haproxy::balancermember { 'mrtest-web1':
  listening_service => 'mrtest-web',
  server_names      => 'mrtest-web1',
  ipaddresses       => '192.0.2.41',
  ports             => '8080',
  weight            => 10,
  options           => 'check',
}
haproxy::balancermember { 'mrtest-web2':
  listening_service => 'mrtest-web',
  server_names      => 'mrtest-web2',
  ipaddresses       => '192.0.2.42',
  ports             => '8080',
  weight            => 20,
  options           => 'check',
}
haproxy::balancermember { 'mrtest-api':
  listening_service => 'mrtest-api',
  server_names      => ['mrtest-api1', 'mrtest-api2'],
  ipaddresses       => ['192.0.2.51', '192.0.2.52'],
  ports             => '9000',
  define_cookies    => true,
  options           => ['check'],
}
