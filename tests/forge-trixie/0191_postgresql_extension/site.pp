# Extensions in an application database: one shipped in the server package,
# one from a separate Debian package at a given version, and contrib.
class { 'postgresql::globals':
  manage_package_repo => false,
}
include postgresql::server
include postgresql::server::contrib
postgresql::server::db { 'mrtest_geo':
  user     => 'mrtest_geo',
  password => postgresql::postgresql_password('mrtest_geo', 'mrtest-geo-pw'),
}
postgresql::server::extension { 'pgcrypto':
  database => 'mrtest_geo',
}
postgresql::server::extension { 'mrtest_geo-postgis':
  database       => 'mrtest_geo',
  extension      => 'postgis',
  package_name   => 'postgresql-15-postgis-3',
  package_ensure => 'present',
  schema         => 'public',
}
