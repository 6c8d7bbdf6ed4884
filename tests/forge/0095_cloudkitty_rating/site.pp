# CloudKitty rating: its API and the processor collecting usage from
# Gnocchi, with the database and Keystone credentials.
# openstacklib ships os_service_default as an external fact (/etc/facter/facts.d),
# which the fixed facts lack: it is set at top scope, as an agent reports it.
$os_service_default = '<SERVICE DEFAULT>'
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
