file { 'mrtest-by-path':
  ensure => file,
  path   => '/tmp/mrtest-real-path',
}
package { 'mrtest-title-pkg':
  name   => 'mrtest-real-pkg-name',
  ensure => installed,
}
notify { 'mrtest-refs-namevar':
  require => [File['mrtest-by-path'], Package['mrtest-title-pkg']],
}
