file { '/tmp/a': }
