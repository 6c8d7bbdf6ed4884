notify { 'mrtest-needs-class': require => Class['mrtest_not_declared'] }
