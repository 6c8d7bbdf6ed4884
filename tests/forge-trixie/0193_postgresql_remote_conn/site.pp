# Objects on a remote server through connect_settings, a connection check
# before a migration, and only the client tools installed locally.
include postgresql::client
$connection_settings = {
  'PGUSER'     => 'mrtest_super',
  'PGPASSWORD' => 'mrtest-super-pw',
  'PGHOST'     => 'db.example.com',
  'PGPORT'     => '5432',
  'PGDATABASE' => 'postgres',
  'DBVERSION'  => '15',
}
postgresql_conn_validator { 'validate mrtest postgres connection':
  host        => 'db.example.com',
  db_username => 'mrtest_app',
  db_password => 'mrtest-app-pw',
  db_name     => 'mrtest_app',
  psql_path   => '/usr/bin/psql',
}
-> exec { 'mrtest db migrate':
  command     => '/srv/mrtest-app/bin/migrate',
  cwd         => '/srv/mrtest-app',
  refreshonly => true,
}
postgresql_psql { 'mrtest remote analyze':
  command          => 'ANALYZE',
  db               => 'mrtest_app',
  connect_settings => $connection_settings,
  unless           => 'SELECT 1 WHERE false',
  psql_path        => '/usr/bin/psql',
}
