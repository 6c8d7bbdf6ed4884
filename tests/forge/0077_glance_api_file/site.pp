# The Glance image API storing images on the local file system, with its
# database and Keystone middleware.
class { 'glance::db::mysql':
  password => 'mrtest-glance-db',
}
class { 'glance::api::db':
  database_connection => 'mysql+pymysql://glance:mrtest-glance-db@127.0.0.1/glance',
}
class { 'glance::api::authtoken':
  password => 'mrtest-glance-keystone',
}
class { 'glance::api':
  enabled_backends => ['file1:file'],
  default_backend  => 'file1',
}
glance::backend::multistore::file { 'file1':
  filesystem_store_datadir => '/var/lib/glance/images/',
}
class { 'glance::keystone::auth':
  password => 'mrtest-glance-keystone',
}
