package { nginx: ensure => installed }
