class mrtestntp::params {
  case $facts['os']['family'] {
    'Debian': {
      $package = 'mrtest-chrony'
      $service = 'mrtest-chronyd'
      $config  = '/tmp/mrtest-chrony/chrony.conf'
    }
    default: {
      $package = 'mrtest-ntp'
      $service = 'mrtest-ntpd'
      $config  = '/tmp/mrtest-ntp.conf'
    }
  }
}
