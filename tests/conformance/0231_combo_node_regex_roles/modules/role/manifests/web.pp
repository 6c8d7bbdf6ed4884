class role::web {
  include role::base
  notify { 'mrtest-role-web': }
}
