class mrtestntp::service {
  service { $mrtestntp::service: ensure => running, enable => true }
}
