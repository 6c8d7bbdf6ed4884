class mrtesthttp (
  Integer $workers = $facts['processors']['count'],
  Hash[String, String] $headers = { 'X-Mrtest' => 'yes' },
) {
  file { '/tmp/mrtest-http.conf':
    ensure  => file,
    content => epp('mrtesthttp/http.conf.epp', {
      'workers' => $workers,
      'headers' => $headers,
      'host'    => $facts['networking']['hostname'],
    }),
  }
}
