file { '/tmp/mrtest-rbtypes': ensure => directory }
mrtest_mixed { 'main/colour': ensure => present, value => 'green' }
mrtest_mixed { 'main/size': ensure => present, value => 'large' }
