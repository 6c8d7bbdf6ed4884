class profile::secrets (Sensitive[String] $db_password = Sensitive('mrtest-s3cret')) {
  file { '/tmp/mrtest-db.env':
    ensure  => file,
    mode    => '0600',
    content => Sensitive("DB_PASSWORD=${db_password.unwrap}\n"),
  }
  exec { 'mrtest-set-pw':
    command     => '/bin/true',
    environment => ['MRTEST_PW=x'],
    refreshonly => true,
    subscribe   => File['/tmp/mrtest-db.env'],
  }
}
include profile::secrets
