# A module's Ruby type and provider create two keys.
mrtest_kv { 'alpha': ensure => present, value => ' one ' }
mrtest_kv { 'beta': ensure => present, value => 'Two', mode => nocase }
