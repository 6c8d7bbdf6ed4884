# The plain provider cannot draw: shade is not managed with it; it paints
# by having the method, so brush is.
mrtest_widget { '/tmp/mrtest-rbtypes/six.widget':
  provider => plain,
  shade    => 'dark',
  brush    => 'flat',
  color    => blue,
}
