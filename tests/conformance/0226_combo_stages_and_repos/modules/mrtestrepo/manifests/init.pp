class mrtestrepo {
  file { '/tmp/mrtest-sources.list':
    ensure  => file,
    content => "deb http://deb.example/debian ${facts['os']['distro']['codename']} main\n",
  }
  ~> exec { 'mrtest-apt-update':
    command     => '/bin/true',
    refreshonly => true,
  }
}
