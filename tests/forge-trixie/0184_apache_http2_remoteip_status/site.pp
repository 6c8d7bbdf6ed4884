# HTTP/2 for a vhost (mod_http2 tuned), client addresses taken from a
# trusted load balancer's X-Forwarded-For (mod_remoteip), and server-status
# restricted to the local network.
class { 'apache':
  default_vhost => false,
  mpm_module    => 'event',
}
class { 'apache::mod::http2':
  h2_direct              => true,
  h2_max_session_streams => 100,
  h2_modern_tls_only     => true,
}
class { 'apache::mod::remoteip':
  header         => 'X-Forwarded-For',
  internal_proxy => ['192.0.2.10', '192.0.2.11'],
}
class { 'apache::mod::status':
  requires        => 'ip 127.0.0.1 192.0.2.0/24',
  extended_status => 'On',
  status_path     => '/mrtest-status',
}
apache::vhost { 'mrtest-h2.example.com':
  port                  => 80,
  docroot               => '/srv/mrtest-www/h2',
  protocols             => ['h2c', 'http/1.1'],
  protocols_honor_order => true,
}
