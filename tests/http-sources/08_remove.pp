$web = "http://127.0.0.1:${facts['mrtest_http_port']}"
file { '/tmp/mrtest-http/out/sha256': ensure => absent, source => "${web}/sha256/motd" }
file { '/tmp/mrtest-http/out/lm': ensure => absent, source => "${web}/lm/motd" }
