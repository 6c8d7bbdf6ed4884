# A stats page protected by a userlist, and a peers section so stick
# tables are shared with a second load balancer.
include haproxy
haproxy::userlist { 'mrtest-admins':
  users  => [
    'mrtest-alice insecure-password mrtest-alice-pw',
    'mrtest-bob password $6$k6y3o.eP$JlKBx9za9667qe4xHSwRv6',
  ],
  groups => [
    'mrtest-ops users mrtest-alice,mrtest-bob',
  ],
}
haproxy::peers { 'mrtest-lb-peers':
  collect_exported => false,
}
haproxy::peer { 'mrtest-lb1':
  peers_name   => 'mrtest-lb-peers',
  server_names => 'mrtest-lb1',
  ipaddresses  => '192.0.2.2',
  port         => 1024,
}
haproxy::peer { 'mrtest-lb2':
  peers_name   => 'mrtest-lb-peers',
  server_names => 'mrtest-lb2',
  ipaddresses  => '192.0.2.3',
  port         => 1024,
}
haproxy::listen { 'mrtest-stats':
  collect_exported => false,
  ipaddress        => '0.0.0.0',
  ports            => '9090',
  mode             => 'http',
  options          => {
    'acl'          => 'auth_ok http_auth(mrtest-admins)',
    'http-request' => 'auth realm mrtest-stats unless auth_ok',
    'stats'        => ['enable', 'uri /', 'refresh 10s'],
    'stick-table'  => 'type ip size 1m expire 10m peers mrtest-lb-peers',
  },
}
