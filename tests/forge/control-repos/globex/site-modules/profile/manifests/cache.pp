# memcached for sessions and Redis for queues. Both listen on the node's
# address; the firewall rules letting the application servers in are data.
# Redis's memory follows the tier (globex::tiers in data/common).
class profile::cache (
  Enum['production', 'staging'] $tier = lookup('globex::tier'),
) {
  include memcached

  class { 'redis':
    maxmemory => lookup("globex::tiers.${tier}.redis_maxmemory"),
  }
}
