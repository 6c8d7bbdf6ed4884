file { '/tmp/mrtest-cr1': ensure => file, tag => 'mrtest_cfg' }
file { '/tmp/mrtest-cr2': ensure => file, tag => 'mrtest_cfg' }
service { 'mrtest-cr-svc': }
File <| tag == 'mrtest_cfg' |> ~> Service['mrtest-cr-svc']
