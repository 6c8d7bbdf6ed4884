# HAProxy with global and defaults options, a TCP listener bound through the
# `bind` hash, and two balancer members declared directly with checks.
class { 'haproxy':
  global_options   => {
    'log'     => "${facts['networking']['ip']} local0",
    'chroot'  => '/var/lib/haproxy',
    'maxconn' => '4000',
    'user'    => 'haproxy',
    'group'   => 'haproxy',
    'daemon'  => '',
    'stats'   => 'socket /var/lib/haproxy/stats',
  },
  defaults_options => {
    'log'     => 'global',
    'option'  => ['redispatch', 'dontlognull'],
    'retries' => '3',
    'timeout' => ['connect 5s', 'client 1m', 'server 1m', 'check 10s'],
    'maxconn' => '8000',
  },
}
haproxy::listen { 'mrtest-mysql':
  collect_exported => false,
  bind             => {
    '192.0.2.2:3306' => [],
  },
  mode             => 'tcp',
  options          => {
    'option'  => ['tcplog', 'mysql-check user haproxy_check'],
    'balance' => 'leastconn',
  },
}
haproxy::balancermember { 'mrtest-mysql-nodes':
  listening_service => 'mrtest-mysql',
  server_names      => ['mrtest-db1', 'mrtest-db2'],
  ipaddresses       => ['192.0.2.31', '192.0.2.32'],
  ports             => '3306',
  options           => ['check', 'inter 2000', 'rise 2', 'fall 3'],
}
