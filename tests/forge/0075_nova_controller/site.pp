# A Nova controller: the API, scheduler and conductor, its MySQL
# databases, Keystone service user and endpoints, RabbitMQ transport and
# the placement credentials.
class { 'nova::db::mysql':
  password => 'mrtest-nova-db',
}
class { 'nova::db::mysql_api':
  password => 'mrtest-nova-db',
}
class { 'nova::keystone::auth':
  password     => 'mrtest-nova-keystone',
  public_url   => 'http://mrtest.example.com:8774/v2.1',
  internal_url => 'http://mrtest.example.com:8774/v2.1',
  admin_url    => 'http://mrtest.example.com:8774/v2.1',
}
class { 'nova::db':
  database_connection     => 'mysql+pymysql://nova:mrtest-nova-db@127.0.0.1/nova?charset=utf8',
  api_database_connection => 'mysql+pymysql://nova_api:mrtest-nova-db@127.0.0.1/nova_api?charset=utf8',
}
class { 'nova':
  default_transport_url => 'rabbit://nova:mrtest-rabbit@127.0.0.1:5672/',
}
class { 'nova::keystone::authtoken':
  password          => 'mrtest-nova-keystone',
  auth_url          => 'http://mrtest.example.com:5000/',
  memcached_servers => ['127.0.0.1:11211'],
}
class { 'nova::api':
  api_bind_address => '0.0.0.0',
}
class { 'nova::placement':
  password => 'mrtest-placement-keystone',
  auth_url => 'http://mrtest.example.com:5000/v3',
}
include nova::scheduler
include nova::conductor
