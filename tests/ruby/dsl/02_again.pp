# The same again: nothing changes.
mrtest_widget { '/tmp/mrtest-rbtypes/one.widget':
  color  => mauve,
  labels => ['B', 'a'],
  size   => '3',
  shade  => 'dark',
  brush  => 'round',
}
mrtest_widget { '/tmp/mrtest-rbtypes/two.widget':
  ensure => disabled,
  color  => 'red',
}
mrtest_widget { '/tmp/mrtest-rbtypes/three.widget':
  ensure => off,
  color  => 'orange',
}
notify { 'two changed': subscribe => Mrtest_widget['/tmp/mrtest-rbtypes/two.widget'] }
mrtest_entry { 'Main::alpha': ensure => present, value => '1' }
mrtest_entry { 'beta': ensure => present, section => 'extra', value => '2' }
