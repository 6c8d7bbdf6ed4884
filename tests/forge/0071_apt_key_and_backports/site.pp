# An APT key by itself and a repository given as a hash.
class { 'apt':
  sources => {
    'nginx' => {
      'location' => 'https://nginx.org/packages/debian',
      'repos'    => 'nginx',
      'key'      => { 'id' => '573BFD6B3D8FBC641079A6ABABF5BD827BD9BF62' },
    },
  },
}
apt::key { 'puppetlabs':
  id     => '6F6B15509CF8E59E6E469F327F438280EF8D349F',
  server => 'keyserver.ubuntu.com',
}
