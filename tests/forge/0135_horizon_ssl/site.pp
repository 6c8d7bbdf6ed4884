# Horizon over HTTPS only (plain HTTP redirected), behind a TLS-terminating
# frontend that sets the forwarded protocol header.
class { 'horizon':
  secret_key                     => 'mrtest-horizon-secret-key',
  listen_ssl                     => true,
  ssl_redirect                   => true,
  ssl_cert                       => '/etc/ssl/certs/mrtest-horizon.pem',
  ssl_key                        => '/etc/ssl/private/mrtest-horizon.key',
  keystone_url                   => 'https://keystone.example.com:5000',
  enable_secure_proxy_ssl_header => true,
  servername                     => 'dashboard.example.com',
  allowed_hosts                  => ['dashboard.example.com'],
}
