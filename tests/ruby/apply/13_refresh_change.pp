# A change refreshes again.
mrtest_kv { 'trigger': ensure => present, value => 'second' }
mrtest_bump { 'one': subscribe => Mrtest_kv['trigger'] }
