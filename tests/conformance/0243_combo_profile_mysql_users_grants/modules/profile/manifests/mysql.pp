class profile::mysql (Array[String] $databases = []) {
  package { 'mrtest-mysql-server': ensure => installed }
  service { 'mrtest-mysql': ensure => running, require => Package['mrtest-mysql-server'] }
  $databases.each |$db| {
    exec { "mrtest-create-${db}":
      command => "/usr/bin/mysql -e 'CREATE DATABASE ${db}'",
      unless  => "/usr/bin/mysql -e 'USE ${db}'",
      require => Service['mrtest-mysql'],
    }
  }
}
