# Labels in another order are in sync by the property's own insync?; a
# disabled widget is present by the ensure's own insync?; other changes
# use the properties' own words.
mrtest_widget { '/tmp/mrtest-rbtypes/one.widget':
  color  => red,
  labels => ['a', 'b'],
  size   => 10,
  shade  => 'light',
}
mrtest_widget { '/tmp/mrtest-rbtypes/two.widget':
  ensure => present,
  color  => 'red',
}
mrtest_widget { '/tmp/mrtest-rbtypes/three.widget':
  ensure => present,
  color  => 'violet',
  labels => ['x'],
}
mrtest_entry { 'main::alpha': value => '11' }
mrtest_entry { 'extra::beta': ensure => absent }
