@@@file { '/tmp/a': }
