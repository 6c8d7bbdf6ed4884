# A cache server: memcached and Redis for the application servers.
class role::cache {
  include profile::base
  include profile::cache
}
