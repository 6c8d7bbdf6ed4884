# Apache in front of two application servers: ProxyPass entries with
# parameters, reverse URLs and exclusions on the vhost, and more paths added
# by the newer apache::vhost::proxy defined type.
class { 'apache':
  default_vhost => false,
}
class { 'apache::mod::proxy':
  proxy_timeout => 120,
}
include apache::mod::proxy_http
apache::vhost { 'mrtest-app.example.com':
  port                => 80,
  docroot             => '/srv/mrtest-www/app',
  proxy_preserve_host => true,
  proxy_pass          => [
    {
      'path'         => '/api/',
      'url'          => 'http://127.0.0.1:8080/api/',
      'params'       => { 'retry' => 0, 'timeout' => 30 },
      'reverse_urls' => ['http://127.0.0.1:8080/api/'],
    },
    {
      'path'          => '/',
      'url'           => 'http://127.0.0.1:3000/',
      'no_proxy_uris' => ['/static/', '/server-status'],
    },
  ],
}
apache::vhost::proxy { 'mrtest-app websocket':
  vhost      => 'mrtest-app.example.com',
  port       => 80,
  proxy_pass => [
    {
      'path'     => '/ws/',
      'url'      => 'http://127.0.0.1:3001/ws/',
      'keywords' => ['upgrade=websocket'],
    },
  ],
}
