define mrtest_deprecated::thing {
  deprecation('mrtest_in_define', 'deprecated inside a defined type')
}
