class mrtestvhost::server {
  package { 'mrtest-httpd': ensure => installed }
  service { 'mrtest-httpd': ensure => running, require => Package['mrtest-httpd'] }
}
