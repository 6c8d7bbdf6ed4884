class mrtest_private::internal {
  assert_private()
  notice('internal reached')
}
