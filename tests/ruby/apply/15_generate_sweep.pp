# The sweep: old_gone is not in this catalog, so it goes.
mrtest_kv { 'old_kept': ensure => present, value => 'kept' }
mrtest_sweep { 'old_': }
