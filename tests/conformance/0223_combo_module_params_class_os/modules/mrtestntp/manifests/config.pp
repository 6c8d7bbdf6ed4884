class mrtestntp::config {
  file { $mrtestntp::config:
    ensure  => file,
    content => epp('mrtestntp/conf.epp', { 'servers' => $mrtestntp::servers }),
  }
}
