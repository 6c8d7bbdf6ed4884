# A PostgreSQL server with a database and its owner.
# Debian 12 is newer than this module release knows, so the version is given.
class { 'postgresql::globals':
  version             => '15',
  manage_package_repo => false,
}
class { 'postgresql::server': }
postgresql::server::db { 'mydatabasename':
  user     => 'mydatabaseuser',
  password => postgresql::postgresql_password('mydatabaseuser', 'mypassword'),
}
