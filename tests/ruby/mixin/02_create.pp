# A setting whose type declares its attributes through a mixin.
file { '/tmp/mrtest-rbtypes': ensure => directory }
mrtest_mixed { 'main/colour': ensure => present, value => ' blue ', require => File['/tmp/mrtest-rbtypes'] }
