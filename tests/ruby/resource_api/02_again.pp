# The same again: canonical values and tags in another order are in sync.
file { '/tmp/mrtest-rbtypes': ensure => directory }
mrtest_rakv { 'alpha': value => 'One', weight => 5, note => 'first' }
mrtest_rakv { 'beta': value => 'two', enabled => false }
mrtest_raline { '/tmp/mrtest-rbtypes/lines.conf:hello world': tags => ['b', 'a'] }
mrtest_raline { 'second': path => '/tmp/mrtest-rbtypes/lines.conf', tags => ['x'] }
