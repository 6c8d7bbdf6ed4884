class mrtest_private {
  include mrtest_private::internal
  mrtest_private::thing { 'inside': }
  notice('mrtest_private included its own private parts')
}
