# An HTTPS nginx server with a redirect from HTTP, proxying to an upstream
# of two members, and an extra location answering health checks.
include nginx
nginx::resource::upstream { 'mrtest-app':
  members => {
    '192.0.2.11:8080' => { 'server' => '192.0.2.11', 'port' => 8080 },
    '192.0.2.12:8080' => { 'server' => '192.0.2.12', 'port' => 8080, 'weight' => 2 },
  },
}
nginx::resource::server { 'app.example.com':
  listen_port  => 443,
  ssl          => true,
  ssl_port     => 443,
  ssl_redirect => true,
  ssl_cert     => '/etc/ssl/certs/ssl-cert-snakeoil.pem',
  ssl_key      => '/etc/ssl/private/ssl-cert-snakeoil.key',
  proxy        => 'http://mrtest-app',
}
nginx::resource::location { 'app.example.com health':
  server              => 'app.example.com',
  location            => '= /healthz',
  ssl                 => true,
  ssl_only            => true,
  location_custom_cfg => { 'return' => '200 ok' },
}
