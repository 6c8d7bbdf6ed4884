$r = file { '/tmp/a': }
notice($r)
