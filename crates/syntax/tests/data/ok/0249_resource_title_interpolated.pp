$n = 'a'
file { "/tmp/${n}": ensure => file }
