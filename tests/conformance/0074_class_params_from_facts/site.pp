class mrtest_host (
  String $fqdn  = $facts['networking']['fqdn'],
  Integer $cpus = $facts['processors']['count'],
  String $fam   = $facts['os']['family'],
) {
  notify { 'mrtest-host': message => "${fqdn} ${cpus} ${fam}" }
}
include mrtest_host
