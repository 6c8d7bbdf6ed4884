# mosquitto installed at the latest version, with its service stopped and
# disabled.
class { 'mosquitto':
  package_ensure => 'latest',
  service_ensure => 'stopped',
  service_enable => false,
}
