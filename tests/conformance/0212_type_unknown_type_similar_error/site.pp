fiel { '/tmp/mrtest-typo': ensure => file }
