# A second PostgreSQL instance beside the main one (README "Configure an
# instance"), with its own directories, port, role, database and rule.
class { 'postgresql::globals':
  manage_package_repo => false,
  encoding            => 'UTF-8',
  locale              => 'C.UTF-8',
}
include postgresql::server
postgresql::server_instance { 'mrtest1':
  instance_user        => 'postgres',
  instance_group       => 'postgres',
  instance_directories => {
    '/srv/mrtest-pgsql'         => { 'ensure' => 'directory' },
    '/srv/mrtest-pgsql/data'    => { 'ensure' => 'directory' },
    '/srv/mrtest-pgsql/data/15' => { 'ensure' => 'directory' },
  },
  config_settings      => {
    'pg_hba_conf_path'     => '/srv/mrtest-pgsql/data/15/mrtest1/pg_hba.conf',
    'postgresql_conf_path' => '/srv/mrtest-pgsql/data/15/mrtest1/postgresql.conf',
    'pg_ident_conf_path'   => '/srv/mrtest-pgsql/data/15/mrtest1/pg_ident.conf',
    'datadir'              => '/srv/mrtest-pgsql/data/15/mrtest1',
    'service_name'         => 'postgresql@15-mrtest1',
    'port'                 => 5433,
    'pg_hba_conf_defaults' => false,
  },
  service_settings     => {
    'service_name'   => 'postgresql@15-mrtest1',
    'service_status' => 'systemctl status postgresql@15-mrtest1.service',
    'service_ensure' => 'running',
    'service_enable' => true,
  },
  initdb_settings      => {
    'auth_local'   => 'peer',
    'auth_host'    => 'scram-sha-256',
    'needs_initdb' => true,
    'datadir'      => '/srv/mrtest-pgsql/data/15/mrtest1',
    'encoding'     => 'UTF-8',
    'locale'       => 'C.UTF-8',
    'group'        => 'postgres',
    'user'         => 'postgres',
    'username'     => 'postgres',
  },
  config_entries       => {
    'authentication_timeout' => { 'value' => '1min', 'comment' => 'a test' },
  },
  roles                => {
    'mrtest_dba' => { 'createdb' => true, 'login' => true },
  },
  databases            => {
    'mrtest_db1' => { 'encoding' => 'UTF8', 'owner' => 'mrtest_dba' },
  },
  pg_hba_rules         => {
    'local all mrtest_dba' => {
      'type'        => 'local',
      'database'    => 'all',
      'user'        => 'mrtest_dba',
      'auth_method' => 'peer',
      'order'       => 1,
    },
  },
}
