# A classic type with two namevars fills them from the title through its
# own title patterns: path and key from `PATH:KEY`, the key alone from a
# bare title whose resource gives the path.
mrtest_pair { '/tmp/mrtest-rbtypes/kv.conf:pair_one': ensure => present, value => 'first' }
mrtest_pair { 'pair_two': ensure => present, path => '/tmp/mrtest-rbtypes/kv.conf', value => 'second' }
notify { 'after both': require => [Mrtest_pair['/tmp/mrtest-rbtypes/kv.conf:pair_one'], Mrtest_pair['pair_two']] }
