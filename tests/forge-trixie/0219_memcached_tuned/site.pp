# memcached for an application cache: bound to loopback and the LAN
# address, a fixed memory size, more connections, larger items, a log file
# and extended options.
class { 'memcached':
  listen          => ['127.0.0.1', '192.0.2.2'],
  tcp_port        => 11211,
  udp_port        => 0,
  max_memory      => 2048,
  max_connections => 4096,
  max_item_size   => '4m',
  processorcount  => 4,
  logfile         => '/var/log/memcached-mrtest.log',
  verbosity       => 'v',
  extended_opts   => ['lru_crawler', 'lru_maintainer'],
}
