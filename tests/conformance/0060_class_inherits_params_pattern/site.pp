class mrtest_svc::params {
  case $facts['os']['family'] {
    'Debian': { $pkg = 'mrtest-svc-deb' }
    default:  { $pkg = 'mrtest-svc-generic' }
  }
  $conf = '/tmp/mrtest-svc.conf'
}
class mrtest_svc (
  String $package = $mrtest_svc::params::pkg,
  String $config  = $mrtest_svc::params::conf,
) inherits mrtest_svc::params {
  package { $package: ensure => installed }
  file { $config: ensure => file, require => Package[$package] }
}
include mrtest_svc
