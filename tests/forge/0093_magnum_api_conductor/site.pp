# Magnum container orchestration: API, conductor and the domain for the
# trustee users it creates, with certificates kept in its database.
class { 'magnum::db':
  database_connection => 'mysql+pymysql://magnum:mrtest-magnum-db@127.0.0.1/magnum',
}
class { 'magnum::keystone::domain':
  domain_password => 'mrtest-magnum-domain',
}
class { 'magnum::keystone::authtoken':
  password => 'mrtest-magnum-keystone',
}
class { 'magnum::api':
  host => '127.0.0.1',
}
class { 'magnum':
  default_transport_url => 'rabbit://magnum:mrtest-rabbit@127.0.0.1:5672',
  notification_driver   => 'messagingv2',
}
class { 'magnum::keystone::keystone_auth':
  password => 'mrtest-magnum-keystone',
}
include magnum::conductor
include magnum::client
class { 'magnum::certificates':
  cert_manager_type => 'x509keypair',
}
