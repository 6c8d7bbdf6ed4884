class profile::tagweb {
  mrtesttagdef { 'x': }
  package { 'mrtest-tagweb': tag => 'mrtest_pkg' }
}
