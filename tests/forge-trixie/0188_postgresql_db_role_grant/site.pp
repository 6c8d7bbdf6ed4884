# A database with its owner, a read-only role with a SCRAM password, and
# that role granted SELECT on all tables of the public schema.
class { 'postgresql::globals':
  manage_package_repo => false,
  encoding            => 'UTF-8',
  locale              => 'C.UTF-8',
}
class { 'postgresql::server':
  password_encryption => 'scram-sha-256',
}
postgresql::server::db { 'mrtest_app':
  user     => 'mrtest_app',
  password => postgresql::postgresql_password('mrtest_app', 'mrtest-app-pw', false, 'scram-sha-256'),
}
postgresql::server::role { 'mrtest_reader':
  password_hash    => postgresql::postgresql_password('mrtest_reader', 'mrtest-reader-pw', false, 'scram-sha-256'),
  connection_limit => '10',
}
postgresql::server::grant { 'mrtest_reader tables':
  role        => 'mrtest_reader',
  db          => 'mrtest_app',
  privilege   => 'SELECT',
  object_type => 'ALL TABLES IN SCHEMA',
  object_name => 'public',
}
postgresql::server::grant { 'mrtest_reader connect':
  role      => 'mrtest_reader',
  db        => 'mrtest_app',
  privilege => 'CONNECT',
}
