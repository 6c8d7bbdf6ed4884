# A Redis server for an application: bound to loopback and the LAN, a
# password, a memory limit with LRU eviction, append-only persistence and
# a renamed dangerous command.
# Its limits drop-in needs a newer puppet-systemd than Debian ships.
class { 'redis':
  bind             => ['127.0.0.1', '192.0.2.2'],
  port             => 6379,
  requirepass      => Sensitive('mrtest-redis-pw'),
  maxmemory        => '512mb',
  maxmemory_policy => 'allkeys-lru',
  appendonly       => true,
  appendfsync      => 'everysec',
  save_db_to_disk  => false,
  rename_commands  => {
    'FLUSHALL' => 'MRTEST_FLUSHALL',
  },
  manage_repo      => false,
  ulimit_managed   => false,
}
