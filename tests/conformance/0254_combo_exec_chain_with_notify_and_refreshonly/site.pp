class profile::certs (String $domain = $facts['networking']['domain']) {
  file { '/tmp/mrtest-certs': ensure => directory, mode => '0700' }
  -> exec { "mrtest-gen-cert-${domain}":
    command => "/usr/bin/openssl req -subj /CN=${domain}",
    creates => "/tmp/mrtest-certs/${domain}.pem",
  }
  ~> exec { 'mrtest-rehash':
    command     => '/usr/bin/c_rehash /tmp/mrtest-certs',
    refreshonly => true,
  }
}
include profile::certs
