# A provider's Ruby fails one resource; its dependents are skipped, the
# others apply.
mrtest_kv { 'zeta': ensure => present, value => 'explode' }
notify { 'after zeta': require => Mrtest_kv['zeta'] }
mrtest_kv { 'eta': ensure => present, value => 'seven' }
