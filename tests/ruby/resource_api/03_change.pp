# Values change; the read-only checksum follows.
file { '/tmp/mrtest-rbtypes': ensure => directory }
mrtest_rakv { 'alpha': value => 'Three', weight => 7 }
mrtest_rakv { 'beta': value => 'two', enabled => true }
mrtest_raline { '/tmp/mrtest-rbtypes/lines.conf:hello world': tags => ['a', 'c'] }
mrtest_raline { 'second': path => '/tmp/mrtest-rbtypes/lines.conf', tags => ['x'] }
