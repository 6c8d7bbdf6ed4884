class mrtest_webserver { package { 'mrtest-httpd': ensure => installed } }
define mrtest_webvhost (Integer $port = 80) {
  include mrtest_webserver
  notify { "mrtest-webvhost-${title}": message => "port ${port}" }
}
mrtest_webvhost { 'one': }
mrtest_webvhost { 'two': port => 8080 }
