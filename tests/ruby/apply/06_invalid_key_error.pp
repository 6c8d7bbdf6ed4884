# The type's validate block refuses the title; the other resource applies.
mrtest_kv { 'Bad Key': ensure => present, value => 'x' }
mrtest_kv { 'gamma': ensure => present, value => 'three' }
