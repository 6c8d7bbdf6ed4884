class mrtest_db (Sensitive[String] $password = lookup('mrtest::db_password')) {
  notify { 'mrtest-db-password': message => $password }
  notify { 'mrtest-db-password-type': message => "${type($password, 'generalized')}" }
}
include mrtest_db
['mrtest::api_keys', 'mrtest::admins', 'mrtest::admins_no_flag', 'mrtest::port', 'mrtest::mode', 'mrtest::ratio',
 'mrtest::enabled', 'mrtest::pairs', 'mrtest::version', 'mrtest::typed_string', 'mrtest::merged_secret'].each |$k| {
  $v = lookup($k)
  notify { $k: message => "${type($v, 'generalized')} ${v}" }
}
