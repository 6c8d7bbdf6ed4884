# The README's permissions examples: a role with database and table grants,
# a schema owned by it, default privileges on new tables, and ownership
# moved from an old role with REASSIGN OWNED.
class { 'postgresql::globals':
  manage_package_repo => false,
}
include postgresql::server
postgresql::server::role { 'mrtest_marmot':
  password_hash => postgresql::postgresql_password('mrtest_marmot', 'mrtest-marmot-pw'),
}
postgresql::server::role { 'mrtest_meerkat':
  login => false,
}
postgresql::server::database { 'mrtest_test1':
  owner => 'mrtest_marmot',
}
postgresql::server::schema { 'mrtest_reports':
  db    => 'mrtest_test1',
  owner => 'mrtest_marmot',
}
postgresql::server::database_grant { 'mrtest_test1':
  privilege => 'ALL',
  db        => 'mrtest_test1',
  role      => 'mrtest_marmot',
}
postgresql::server::table_grant { 'my_table of mrtest_test1':
  privilege     => 'SELECT',
  table         => 'my_table',
  db            => 'mrtest_test1',
  role          => 'mrtest_meerkat',
  onlyif_exists => true,
}
postgresql::server::default_privileges { 'mrtest_marmot access to new tables on mrtest_test1':
  db          => 'mrtest_test1',
  role        => 'mrtest_marmot',
  privilege   => 'ALL',
  object_type => 'TABLES',
  schema      => 'mrtest_reports',
}
postgresql::server::reassign_owned_by { 'new owner is mrtest_meerkat':
  db       => 'mrtest_test1',
  old_role => 'mrtest_marmot',
  new_role => 'mrtest_meerkat',
}
