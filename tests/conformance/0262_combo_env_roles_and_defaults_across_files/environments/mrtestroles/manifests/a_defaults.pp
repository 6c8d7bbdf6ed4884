Package { ensure => installed }
