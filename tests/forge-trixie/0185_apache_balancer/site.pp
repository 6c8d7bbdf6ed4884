# A load-balancing cluster without exported resources: the balancer with
# ProxySet options (its lbmethod module loaded by the balancer), two
# members, and a vhost proxying to balancer://.
class { 'apache':
  default_vhost => false,
}
include apache::mod::proxy
include apache::mod::proxy_balancer
apache::balancer { 'mrtest-cluster':
  collect_exported => false,
  proxy_set        => {
    'stickysession' => 'JSESSIONID',
    'lbmethod'      => 'bytraffic',
  },
}
apache::balancermember { 'mrtest-app1':
  balancer_cluster => 'mrtest-cluster',
  url              => 'http://192.0.2.21:8080',
  options          => ['ping=5', 'disablereuse=on', 'retry=5', 'ttl=120'],
}
apache::balancermember { 'mrtest-app2':
  balancer_cluster => 'mrtest-cluster',
  url              => 'http://192.0.2.22:8080',
  options          => ['ping=5', 'retry=5', 'loadfactor=2'],
}
apache::vhost { 'mrtest-lb.example.com':
  port       => 80,
  docroot    => '/srv/mrtest-www/lb',
  proxy_pass => [
    {
      'path' => '/',
      'url'  => 'balancer://mrtest-cluster/',
    },
  ],
}
