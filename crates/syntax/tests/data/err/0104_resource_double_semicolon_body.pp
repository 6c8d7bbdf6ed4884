file { '/tmp/a': ;; }
