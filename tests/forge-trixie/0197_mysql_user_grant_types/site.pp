# Accounts and privileges with the module's native types: users with
# connection limits and a hashed password, a table-level grant and a
# global grant with GRANT OPTION, plus root over IPv4/IPv6 loopback.
class { 'mysql::server':
  root_password => 'mrtest-root-pw',
}
mysql_database { 'mrtest_reports':
  ensure  => present,
  charset => 'utf8mb4',
  collate => 'utf8mb4_general_ci',
}
mysql_user { 'mrtest_report@localhost':
  ensure                   => present,
  password_hash            => mysql::password('mrtest-report-pw'),
  max_connections_per_hour => 100,
  max_user_connections     => 5,
}
mysql_grant { 'mrtest_report@localhost/mrtest_reports.*':
  ensure     => present,
  user       => 'mrtest_report@localhost',
  table      => 'mrtest_reports.*',
  privileges => ['SELECT', 'SHOW VIEW'],
  require    => Mysql_database['mrtest_reports'],
}
mysql_user { 'mrtest_admin@%':
  ensure        => present,
  password_hash => mysql::password('mrtest-admin-pw'),
}
mysql_grant { 'mrtest_admin@%/*.*':
  ensure     => present,
  user       => 'mrtest_admin@%',
  table      => '*.*',
  privileges => ['ALL'],
  options    => ['GRANT'],
}
mysql_user { 'root@127.0.0.1':
  ensure        => present,
  password_hash => mysql::password($mysql::server::root_password),
}
mysql_user { 'root@::1':
  ensure        => present,
  password_hash => mysql::password($mysql::server::root_password),
}
