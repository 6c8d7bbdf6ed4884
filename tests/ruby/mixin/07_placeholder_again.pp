# Again: nothing to do.
file { '/tmp/mrtest-rbtypes': ensure => directory }
mrtest_mixed { 'main/colour': value => '<DEFAULT>' }
mrtest_mixed { 'main/unset': value => '<DEFAULT>' }
mrtest_mixed { 'main/size': ensure => present, value => 'large' }
