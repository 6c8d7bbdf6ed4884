# PostgreSQL with the connections the role allows.
class profile::db (
  Integer $max_connections,
  Sensitive[String] $password,
) {
  package { 'postgresql':
    ensure => installed,
  }
  file { '/etc/postgresql/marionette.conf':
    ensure  => file,
    content => "max_connections = ${max_connections}\n",
    require => Package['postgresql'],
  }
  file { '/etc/postgresql/.pgpass':
    ensure  => file,
    mode    => '0600',
    content => $password,
    require => Package['postgresql'],
  }
  service { 'postgresql':
    ensure    => running,
    subscribe => File['/etc/postgresql/marionette.conf'],
  }
}
