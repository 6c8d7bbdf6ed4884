Service['x'] { ensure => undef }
