class role::db {
  include role::base
  notify { 'mrtest-role-db': message => "db number ${mrtest_index}" }
}
