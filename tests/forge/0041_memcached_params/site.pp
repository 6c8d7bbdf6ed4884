# memcached with a memory limit, listening address and extra options.
class { 'memcached':
  max_memory => '12%',
  listen_ip  => '127.0.0.1',
  tcp_port   => 11211,
  udp_port   => 0,
  max_connections => 4096,
}
