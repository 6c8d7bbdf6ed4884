# Several Redis servers on one host (redis::instance), the default one
# stopped: a cache without persistence and a replica of another server.
class { 'redis':
  default_install => false,
  service_enable  => false,
  service_ensure  => 'stopped',
}
redis::instance { 'mrtest-cache':
  port             => 6380,
  bind             => '127.0.0.1',
  maxmemory        => '256mb',
  maxmemory_policy => 'volatile-lru',
  save_db_to_disk  => false,
}
redis::instance { 'mrtest-replica':
  port       => 6381,
  bind       => '192.0.2.2',
  replicaof  => '192.0.2.71 6379',
  masterauth => 'mrtest-master-pw',
  appendonly => true,
}
