class mrtestrole {
  include mrtestlib
  notify { 'mrtest-role-from-site-modules': }
}
