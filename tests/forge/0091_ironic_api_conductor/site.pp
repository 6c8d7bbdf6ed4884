# Ironic bare-metal provisioning: its API and conductor with the ipmi
# hardware type, and the database and Keystone user they need.
class { 'ironic::db::mysql':
  password => 'mrtest-ironic-db',
}
class { 'ironic::db':
  database_connection => 'mysql+pymysql://ironic:mrtest-ironic-db@127.0.0.1/ironic?charset=utf8',
}
class { 'ironic':
  default_transport_url => 'rabbit://ironic:mrtest-rabbit@127.0.0.1:5672/',
}
class { 'ironic::api::authtoken':
  password => 'mrtest-ironic-keystone',
}
include ironic::api
class { 'ironic::conductor':
  enabled_hardware_types => ['ipmi'],
}
class { 'ironic::keystone::auth':
  password => 'mrtest-ironic-keystone',
}
