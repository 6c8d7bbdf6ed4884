# An archive downloaded, checked and extracted.
include archive
archive { '/tmp/jta-1.1.jar':
  ensure => present,
  extract => false,
  source => 'http://central.maven.org/maven2/javax/transaction/jta/1.1/jta-1.1.jar',
  checksum => '2ca09f0b36ca7d71b762e14ea2ff09d5eac57558',
  checksum_type => 'sha1',
  creates => '/tmp/jta-1.1.jar',
  cleanup => false,
}
file { '/opt/apps': ensure => directory }
archive { '/tmp/app.tar.gz':
  source       => 'https://example.com/app-1.0.tar.gz',
  extract      => true,
  extract_path => '/opt/apps',
  creates      => '/opt/apps/app-1.0',
  cleanup      => true,
  require      => File['/opt/apps'],
}
