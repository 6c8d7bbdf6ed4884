# Barbican's key manager API with the simple crypto plugin storing secrets
# in its database.
class { 'barbican::db':
  database_connection => 'mysql+pymysql://barbican:mrtest-barbican-db@127.0.0.1/barbican',
}
class { 'barbican::keystone::authtoken':
  password => 'mrtest-barbican-keystone',
}
class { 'barbican::api':
  host_href                   => 'http://mrtest.example.com:9311',
  default_transport_url       => 'rabbit://barbican:mrtest-rabbit@127.0.0.1:5672/',
  enabled_secretstore_plugins => ['store_crypto'],
  enabled_crypto_plugins      => ['simple_crypto'],
  auth_strategy               => 'keystone',
}
class { 'barbican::plugins::simple_crypto':
  simple_crypto_plugin_kek => 'dGhpcnR5X3R3b19ieXRlX2tleWJsYWhibGFoYmxhaGg=',
}
