# The Horizon dashboard served by Apache, caching sessions in memcached and
# pointing at a Keystone endpoint.
# openstacklib ships os_service_default as an external fact (/etc/facter/facts.d),
# which the fixed facts lack: it is set at top scope, as an agent reports it.
$os_service_default = '<SERVICE DEFAULT>'
class { 'horizon':
  secret_key      => 'mrtest-horizon-secret-key',
  cache_backend   => 'django.core.cache.backends.memcached.PyMemcacheCache',
  cache_server_ip => '127.0.0.1',
  keystone_url    => 'http://mrtest.example.com:5000',
  allowed_hosts   => ['mrtest.example.com'],
  servername      => 'mrtest.example.com',
  timezone        => 'UTC',
}
