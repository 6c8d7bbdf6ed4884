# Redis listening on all addresses with a memory limit. redis 11 manages the
# service's open-files limit with systemd::manage_dropin, which the systemd
# module Debian 13 ships (2.12) lacks: ulimit_managed => false leaves it alone.
class { 'redis':
  bind             => '0.0.0.0',
  port             => 6380,
  maxmemory        => '256mb',
  maxmemory_policy => 'allkeys-lru',
  manage_repo      => false,
  ulimit_managed   => false,
}
