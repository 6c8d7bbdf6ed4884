# MongoDB server and client with a database.
class { 'mongodb::globals':
  manage_package_repo => false,
}
class { 'mongodb::server':
  bind_ip => ['127.0.0.1'],
  port    => 27017,
  auth    => false,
}
class { 'mongodb::client': }
