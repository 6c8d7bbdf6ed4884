# Removal.
mrtest_rakv { 'alpha': ensure => absent }
mrtest_raline { '/tmp/mrtest-rbtypes/lines.conf:second': ensure => absent }
