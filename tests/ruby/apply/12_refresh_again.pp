# Nothing changed: no refresh.
mrtest_kv { 'trigger': ensure => present, value => 'first' }
mrtest_bump { 'one': subscribe => Mrtest_kv['trigger'] }
