class mrtest_secrets (
  Sensitive[String] $db_password = lookup('mrtest::db_password'),
  String $root_password = lookup('mrtest::root_password'),
) {
  notify { 'mrtest-db-password': message => $db_password }
  notify { 'mrtest-db-password-unwrapped': message => $db_password.unwrap }
  notify { 'mrtest-root-password': message => $root_password }
  notify { 'mrtest-dsn': message => lookup('mrtest::dsn') }
}
include mrtest_secrets
