# The Horizon dashboard served by Apache, caching sessions in memcached and
# pointing at a Keystone endpoint.
class { 'horizon':
  secret_key      => 'mrtest-horizon-secret-key',
  cache_backend   => 'django.core.cache.backends.memcached.PyMemcacheCache',
  cache_server_ip => '127.0.0.1',
  keystone_url    => 'http://mrtest.example.com:5000',
  allowed_hosts   => ['mrtest.example.com'],
  servername      => 'mrtest.example.com',
  timezone        => 'UTC',
}
