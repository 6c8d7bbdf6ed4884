File { tag => 'mrtest_deftag', noop => true }
file { '/tmp/mrtest-meta': ensure => file }
