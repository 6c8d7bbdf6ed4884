class mrtest_scoped {
  Notify { message => 'from class default' }
  notify { 'mrtest-in-class': }
}
include mrtest_scoped
notify { 'mrtest-outside': }
