# Removed.
concat { '/tmp/mrtest-rbtypes/a.conf': ensure => absent }
concat { '/tmp/mrtest-rbtypes/none.conf': ensure => absent }
