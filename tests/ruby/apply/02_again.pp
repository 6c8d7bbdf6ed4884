# The same again: everything is in sync.
mrtest_kv { 'alpha': ensure => present, value => ' one ' }
mrtest_kv { 'beta': ensure => present, value => 'Two', mode => nocase }
