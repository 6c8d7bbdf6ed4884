# A value changes; another differs only in case, which the property's own
# insync? accepts.
mrtest_kv { 'alpha': ensure => present, value => 'uno' }
mrtest_kv { 'beta': ensure => present, value => 'TWO', mode => nocase }
