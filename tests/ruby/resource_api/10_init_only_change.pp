# Changing an init_only attribute of an entry that exists is warned of
# (Puppet's strict setting at its default), and made.
file { '/tmp/mrtest-rbtypes': ensure => directory }
mrtest_rasize { 'small': size => 2, label => 'second' }
