# A key is removed.
mrtest_kv { 'alpha': ensure => absent }
