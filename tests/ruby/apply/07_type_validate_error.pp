# The type-level validate block: a present key needs a value.
mrtest_kv { 'delta': ensure => present }
