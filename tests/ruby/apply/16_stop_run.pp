# A provider stops the run: what comes after it, in order or not, is
# skipped.
mrtest_kv { 'stop_before': ensure => present, value => 'one' }
-> mrtest_stop { 'now': ensure => present }
-> mrtest_kv { 'stop_after': ensure => present, value => 'two' }
mrtest_kv { 'stop_unrelated': ensure => present, value => 'three' }
