class role::base {
  notify { 'mrtest-role-base': }
}
