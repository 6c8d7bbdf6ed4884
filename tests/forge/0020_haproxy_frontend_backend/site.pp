# HAProxy with a frontend and a backend, and global options.
class { 'haproxy':
  global_options   => {
    'log'     => "${facts['networking']['ip']} local0",
    'chroot'  => '/var/lib/haproxy',
    'pidfile' => '/var/run/haproxy.pid',
    'maxconn' => '4000',
    'user'    => 'haproxy',
    'group'   => 'haproxy',
    'daemon'  => '',
  },
  defaults_options => {
    'log'     => 'global',
    'option'  => ['redispatch'],
    'retries' => '3',
    'timeout' => ['http-request 10s', 'queue 1m', 'connect 10s', 'client 1m', 'server 1m', 'check 10s'],
    'maxconn' => '8000',
  },
}
haproxy::frontend { 'puppet00':
  ipaddress => $facts['networking']['ip'],
  ports     => '18140',
  mode      => 'tcp',
  options   => {
    'default_backend' => 'puppet00',
    'timeout client'  => '30s',
    'option'          => ['tcplog', 'accept-invalid-http-request'],
  },
}
haproxy::backend { 'puppet00':
  collect_exported => false,
  options          => {
    'option'  => ['tcplog'],
    'balance' => 'roundrobin',
  },
}
