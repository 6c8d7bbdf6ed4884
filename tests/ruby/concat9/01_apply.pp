# A newer concat (./newer-concat: Debian's, with concat 9's
# `create_empty_file`) declares what the native concat_file (written for
# concat 7) does not implement: the module's own Ruby applies it.
file { '/tmp/mrtest-rbtypes': ensure => directory }
concat { '/tmp/mrtest-rbtypes/a.conf': mode => '0600' }
concat::fragment { 'a-second': target => '/tmp/mrtest-rbtypes/a.conf', content => "second\n", order => '20' }
concat::fragment { 'a-first': target => '/tmp/mrtest-rbtypes/a.conf', content => "first\n", order => '10' }
concat { '/tmp/mrtest-rbtypes/blank.conf': }
concat { '/tmp/mrtest-rbtypes/none.conf': create_empty_file => false }
