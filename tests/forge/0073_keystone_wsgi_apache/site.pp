# Keystone served by Apache's mod_wsgi over HTTPS instead of its own
# service, with debug logging and the memcache token cache.
class { 'keystone::db':
  database_connection => 'mysql+pymysql://keystone:mrtest-secret@db.example.com/keystone',
}
# Declared before keystone, which includes it with its defaults.
class { 'keystone::logging':
  debug => true,
}
class { 'keystone':
  catalog_driver => 'sql',
  service_name   => 'httpd',
}
class { 'keystone::cache':
  backend          => 'dogpile.cache.memcached',
  enabled          => true,
  memcache_servers => ['127.0.0.1:11211'],
}
include apache
class { 'keystone::wsgi::apache':
  ssl      => true,
  ssl_cert => '/etc/ssl/certs/mrtest-keystone.pem',
  ssl_key  => '/etc/ssl/private/mrtest-keystone.key',
  workers  => 2,
}
