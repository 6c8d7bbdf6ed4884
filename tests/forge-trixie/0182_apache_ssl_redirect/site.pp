# TLS with mod_ssl tuned (protocols, per-protocol ciphers, stapling), an
# HTTPS virtual host with its own certificate and chain, and the plain HTTP
# host redirecting permanently to it.
class { 'apache':
  default_vhost     => false,
  default_ssl_vhost => false,
}
class { 'apache::mod::ssl':
  ssl_protocol   => ['all', '-SSLv3', '-TLSv1', '-TLSv1.1'],
  ssl_cipher     => {
    'TLSv1.2' => 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256',
  },
  ssl_stapling   => true,
  stapling_cache => 'shmcb:/var/run/ocsp(128000)',
}
apache::vhost { 'mrtest-secure.example.com non-ssl':
  servername      => 'mrtest-secure.example.com',
  port            => 80,
  docroot         => '/srv/mrtest-www/secure',
  redirect_status => 'permanent',
  redirect_dest   => 'https://mrtest-secure.example.com/',
}
apache::vhost { 'mrtest-secure.example.com ssl':
  servername => 'mrtest-secure.example.com',
  port       => 443,
  docroot    => '/srv/mrtest-www/secure',
  ssl        => true,
  ssl_cert   => '/etc/ssl/certs/mrtest-secure.example.com.pem',
  ssl_key    => '/etc/ssl/private/mrtest-secure.example.com.key',
  ssl_chain  => '/etc/ssl/certs/mrtest-chain.pem',
  headers    => ['always set Strict-Transport-Security "max-age=31536000"'],
}
