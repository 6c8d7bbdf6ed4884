# The PostgreSQL client and contrib packages.
# Debian 12 is newer than this module release knows, so the version is given.
class { 'postgresql::globals':
  version             => '15',
  manage_package_repo => false,
}
include postgresql::client
include postgresql::server
include postgresql::server::contrib
