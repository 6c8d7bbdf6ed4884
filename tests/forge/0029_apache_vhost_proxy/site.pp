# A reverse proxy virtual host.
class { 'apache': default_vhost => false }
apache::vhost { 'app.example.com':
  port                => 80,
  docroot             => '/var/www/app',
  proxy_preserve_host => true,
  proxy_pass          => [
    { 'path' => '/api', 'url' => 'http://localhost:8080/api' },
    { 'path' => '/', 'url' => 'http://localhost:3000/' },
  ],
}
