# CloudKitty rating: its API and the processor collecting usage from
# Gnocchi, with the database and Keystone credentials.
class { 'cloudkitty::db':
  database_connection => 'mysql+pymysql://cloudkitty:mrtest-cloudkitty-db@127.0.0.1/cloudkitty',
}
class { 'cloudkitty':
  default_transport_url => 'rabbit://cloudkitty:mrtest-rabbit@127.0.0.1:5672/',
}
class { 'cloudkitty::keystone::authtoken':
  password => 'mrtest-cloudkitty-keystone',
}
include cloudkitty::api
class { 'cloudkitty::processor':
  collector => 'gnocchi',
}
class { 'cloudkitty::keystone::auth':
  password => 'mrtest-cloudkitty-keystone',
}
