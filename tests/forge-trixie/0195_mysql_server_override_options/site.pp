# A MariaDB server with my.cnf overrides (bind address, buffer sizes, a
# repeated replicate-do-db option, an option removed), reloaded on config
# changes, the anonymous and test accounts removed.
class { 'mysql::server':
  root_password           => 'mrtest-root-pw',
  remove_default_accounts => true,
  reload_on_config_change => true,
  override_options        => {
    'mysqld'      => {
      'bind-address'            => '127.0.0.1',
      'max_connections'         => 300,
      'innodb_buffer_pool_size' => '1G',
      'replicate-do-db'         => ['mrtest_base1', 'mrtest_base2'],
      'skip-name-resolve'       => true,
      'query_cache_size'        => undef,
    },
    'mysqld_safe' => {
      'log-error' => '/var/log/mysql/mrtest-error.log',
    },
  },
}
