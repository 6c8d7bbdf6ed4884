# --noop: what removing a key would do.
mrtest_kv { 'alpha': ensure => absent }
