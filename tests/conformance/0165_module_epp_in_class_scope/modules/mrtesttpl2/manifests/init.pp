class mrtesttpl2 (String $owner = 'mrtest-owner') {
  $fqdn_local = $facts['networking']['fqdn']
  file { '/tmp/mrtest-epp2':
    content => epp('mrtesttpl2/motd.epp'),
  }
}
