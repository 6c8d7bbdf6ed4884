class profile::python {
  $version = $facts['os']['release']['major'] ? {
    '11'    => '3.9',
    '12'    => '3.11',
    default => '3',
  }
  package { "mrtest-python${version}": ensure => installed }
  file { '/tmp/mrtest-python': ensure => link, target => "/usr/bin/python${version}",
    require => Package["mrtest-python${version}"] }
}
include profile::python
