# nginx serving the sites of the role.
class profile::web (
  Integer $worker_processes,
  Array[String] $server_names,
) {
  package { 'nginx':
    ensure => installed,
  }
  file { '/etc/nginx/nginx.conf':
    ensure  => file,
    content => template('profile/nginx.conf.erb'),
    require => Package['nginx'],
    notify  => Service['nginx'],
  }
  file { '/etc/nginx/sites-enabled/default':
    ensure  => file,
    content => epp('profile/site.epp', { 'server_names' => $server_names }),
    require => Package['nginx'],
    notify  => Service['nginx'],
  }
  service { 'nginx':
    ensure  => running,
    enable  => true,
    require => [Package['nginx'], File['/etc/nginx/sites-enabled/default']],
  }
}
