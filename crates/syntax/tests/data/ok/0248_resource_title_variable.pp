$t = '/tmp/a'
file { $t: ensure => file }
