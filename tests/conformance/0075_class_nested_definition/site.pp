class mrtest_outerdef {
  class inner {
    notify { 'mrtest-nested-inner': }
  }
  include mrtest_outerdef::inner
}
include mrtest_outerdef
