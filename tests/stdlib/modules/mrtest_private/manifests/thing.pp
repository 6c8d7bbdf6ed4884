define mrtest_private::thing {
  assert_private('only mrtest_private may declare a thing')
  notice("thing ${title}")
}
