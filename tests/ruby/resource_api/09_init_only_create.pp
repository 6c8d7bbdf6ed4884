# A provider that supports noop is told so; the init_only size is set.
file { '/tmp/mrtest-rbtypes': ensure => directory }
mrtest_rasize { 'small': size => 1, label => 'first' }
