# A virtual host with SSL and a redirect from plain HTTP.
class { 'apache': default_vhost => false }
apache::vhost { 'ssl.example.com non-ssl':
  servername      => 'ssl.example.com',
  port            => 80,
  docroot         => '/var/www/ssl',
  redirect_status => 'permanent',
  redirect_dest   => 'https://ssl.example.com/',
}
apache::vhost { 'ssl.example.com ssl':
  servername => 'ssl.example.com',
  port       => 443,
  docroot    => '/var/www/ssl',
  ssl        => true,
  ssl_cert   => '/etc/ssl/certs/ssl.example.com.pem',
  ssl_key    => '/etc/ssl/private/ssl.example.com.key',
}
