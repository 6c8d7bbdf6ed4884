# A role, a database and a grant on it, with access rules.
# Debian 12 is newer than this module release knows, so the version is given.
class { 'postgresql::globals':
  version             => '15',
  manage_package_repo => false,
}
class { 'postgresql::server':
  listen_addresses => '*',
}
postgresql::server::role { 'marmot':
  password_hash => postgresql::postgresql_password('marmot', 'mypasswd'),
}
postgresql::server::database { 'test1': }
postgresql::server::database_grant { 'test1':
  privilege => 'ALL',
  db        => 'test1',
  role      => 'marmot',
}
postgresql::server::pg_hba_rule { 'allow application network to access app database':
  description => 'Open up PostgreSQL for access from 200.1.2.0/24',
  type        => 'host',
  database    => 'app',
  user        => 'app',
  address     => '200.1.2.0/24',
  auth_method => 'md5',
}
