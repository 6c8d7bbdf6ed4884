# Each way a web server can describe a file, and each way it can fail.
$web = "http://127.0.0.1:${facts['mrtest_http_port']}"
$out = '/tmp/mrtest-http/out'
file { $out: ensure => directory }
file { "${out}/lm": source => "${web}/lm/motd" }
file { "${out}/sha256": source => "${web}/sha256/motd" }
file { "${out}/sha1": source => "${web}/sha1/motd" }
file { "${out}/md5": source => "${web}/md5/motd" }
file { "${out}/none": source => "${web}/none/motd" }
file { "${out}/nohead": source => "${web}/nohead/motd" }
file { "${out}/redirect": source => "${web}/redirect/motd" }
file { "${out}/auth": source => "http://mrtest:secret@127.0.0.1:${facts['mrtest_http_port']}/auth/motd" }
file { "${out}/first": source => ["${web}/lm/nothing", "${web}/sha256/motd"] }
file { "${out}/mode": source => "${web}/sha256/motd", mode => '0600' }
file { "${out}/liar": source => "${web}/liar/motd" }
file { "${out}/missing": source => "${web}/lm/nothing" }
file { "${out}/noauth": source => "${web}/auth/motd" }
file { "${out}/refused": source => 'http://127.0.0.1:1/lm/motd' }
notify { 'after the missing file': require => File["${out}/missing"] }
