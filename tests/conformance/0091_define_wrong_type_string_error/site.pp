define mrtest_flag (Boolean $on) { }
mrtest_flag { 'mrtest-flag': on => 'yes' }
