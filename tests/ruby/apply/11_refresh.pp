# A classic Ruby type's own refresh runs when what it subscribes to
# changes, and only then.
mrtest_kv { 'trigger': ensure => present, value => 'first' }
mrtest_bump { 'one': subscribe => Mrtest_kv['trigger'] }
mrtest_bump { 'two': }
