package { 'ntp': ensure => installed }
-> file { '/etc/ntp.conf': ensure => file }
~> service { 'ntpd': ensure => running }
