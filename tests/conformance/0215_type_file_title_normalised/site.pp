file { '/tmp/mrtest-trailing/': ensure => directory }
file { '/tmp//mrtest-double//slash': ensure => file }
