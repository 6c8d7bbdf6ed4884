file { '/tmp/mrtest-cfg': ensure => file, content => 'v=1' }
exec { 'mrtest-apply-cfg':
  command     => '/bin/true',
  refreshonly => true,
  subscribe   => File['/tmp/mrtest-cfg'],
  refresh     => '/bin/echo refreshed',
}
