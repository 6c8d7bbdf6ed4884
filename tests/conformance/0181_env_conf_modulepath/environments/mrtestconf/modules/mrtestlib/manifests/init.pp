class mrtestlib {
  notify { 'mrtest-lib-from-modules': }
}
