# Redis listening on all addresses with a memory limit.
class { 'redis':
  bind             => '0.0.0.0',
  port             => 6380,
  maxmemory        => '256mb',
  maxmemory_policy => 'allkeys-lru',
  manage_repo      => false,
}
