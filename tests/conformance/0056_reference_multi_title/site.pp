package { ['mrtest-a', 'mrtest-b', 'mrtest-c']: ensure => installed }
service { 'mrtest-multi':
  require => Package['mrtest-a', 'mrtest-b'],
}
