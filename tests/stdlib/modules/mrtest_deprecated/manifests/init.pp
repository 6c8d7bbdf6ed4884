class mrtest_deprecated {
  deprecation('mrtest_in_class', 'deprecated inside a class')
  mrtest_deprecated::thing { 'late': }
}
