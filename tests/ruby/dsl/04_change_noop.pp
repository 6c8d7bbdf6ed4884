# What would change, without changing it.
mrtest_widget { '/tmp/mrtest-rbtypes/one.widget':
  ensure => absent,
}
mrtest_widget { '/tmp/mrtest-rbtypes/two.widget':
  ensure => disabled,
  size   => 2,
}
mrtest_entry { 'main::alpha': value => '12' }
