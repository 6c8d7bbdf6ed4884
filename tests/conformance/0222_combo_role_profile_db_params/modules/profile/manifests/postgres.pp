class profile::postgres (Integer $shared_buffers_mb = 128) {
  package { 'mrtest-postgresql': ensure => installed }
  file { '/tmp/mrtest-postgresql.conf':
    content => "shared_buffers = ${shared_buffers_mb}MB\n",
    require => Package['mrtest-postgresql'],
    notify  => Service['mrtest-postgresql'],
  }
  service { 'mrtest-postgresql': ensure => running }
}
