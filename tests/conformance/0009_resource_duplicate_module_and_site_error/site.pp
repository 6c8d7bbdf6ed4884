file { '/tmp/mrtest-conflict': ensure => file }
include mrtestdup
