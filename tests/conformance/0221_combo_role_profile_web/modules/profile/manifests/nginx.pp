class profile::nginx (
  Integer $port = 80,
  String $docroot = '/tmp/mrtest-www',
) {
  package { 'mrtest-nginx': ensure => installed }
  -> file { '/tmp/mrtest-nginx.conf':
    ensure  => file,
    content => "listen ${port}; root ${docroot};\n",
  }
  ~> service { 'mrtest-nginx': ensure => running, enable => true }
}
