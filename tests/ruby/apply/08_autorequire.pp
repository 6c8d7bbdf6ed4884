# The directory is declared after the key, and the type's autorequire
# block orders it first.
mrtest_kv { 'epsilon': ensure => present, value => 'five', path => '/tmp/mrtest-rbtypes/sub/kv.conf' }
file { '/tmp/mrtest-rbtypes/sub': ensure => directory }
