# A classic Ruby type's generate adds resources to the run: the
# unmanaged keys with the prefix are removed, a managed one stays.
mrtest_kv { 'old_kept': ensure => present, value => 'kept' }
mrtest_kv { 'old_gone': ensure => present, value => 'gone' }
