File { '/tmp/a': ensure => file ; ensure => present }
