file { '/tmp/mrtest-tags': ensure => file }
notify { 'mrtest single_word': }
notify { 'mrtest_word': }
notify { 'Mrtest-Upper': }
