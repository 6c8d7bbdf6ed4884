# A database with its user and privileges, created with a character set and
# filled from a compressed SQL dump on creation (README "Create a database").
class { 'mysql::server':
  root_password => 'mrtest-root-pw',
}
mysql::db { 'mrtest_shop':
  user           => 'mrtest_shop',
  password       => 'mrtest-shop-pw',
  host           => 'localhost',
  charset        => 'utf8mb4',
  collate        => 'utf8mb4_unicode_ci',
  grant          => ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  sql            => ['/srv/mrtest-sql/schema.sql.gz'],
  import_cat_cmd => 'zcat',
  import_timeout => 900,
}
mysql::db { 'mrtest_hashed':
  user     => 'mrtest_hashed',
  password => '*6C8989366EAF75BB670AD8EA7A7FC1176A95CEF4',
  host     => '192.0.2.%',
  grant    => ['ALL'],
}
