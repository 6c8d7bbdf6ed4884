package { ['mrtest-p1', 'mrtest-p2']: }
file { ['/tmp/mrtest-f1', '/tmp/mrtest-f2']: ensure => file }
service { 'mrtest-multi-svc':
  require   => [Package['mrtest-p1'], Package['mrtest-p2']],
  subscribe => [File['/tmp/mrtest-f1'], File['/tmp/mrtest-f2']],
}
