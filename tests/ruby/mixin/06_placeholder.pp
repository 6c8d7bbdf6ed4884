# A value the provider takes for "absent" while reading leaves a missing
# setting alone (nothing created, nothing changed) and removes one there.
file { '/tmp/mrtest-rbtypes': ensure => directory }
mrtest_mixed { 'main/colour': value => '<DEFAULT>' }
mrtest_mixed { 'main/unset': value => '<DEFAULT>' }
mrtest_mixed { 'main/size': ensure => present, value => 'large' }
