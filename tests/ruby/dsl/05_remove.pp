# Removed, and disabled.
mrtest_widget { '/tmp/mrtest-rbtypes/one.widget':
  ensure => absent,
}
mrtest_widget { '/tmp/mrtest-rbtypes/two.widget':
  ensure => disabled,
}
mrtest_entry { 'main::alpha': ensure => absent }
