# A null client sending all mail through an authenticated smarthost:
# relayhost, origin and root alias on the class, TLS and SASL settings as
# postfix::config entries, one setting blanked and one removed.
class { 'postfix':
  relayhost           => '[smtp.example.com]:587',
  myorigin            => 'example.com',
  inet_interfaces     => 'loopback-only',
  smtp_listen         => '127.0.0.1',
  root_mail_recipient => 'mrtest-ops@example.com',
}
postfix::config {
  'smtp_tls_security_level':    value => 'encrypt';
  'smtp_tls_CAfile':            value => '/etc/ssl/certs/ca-certificates.crt';
  'smtp_sasl_auth_enable':      value => 'yes';
  'smtp_sasl_password_maps':    value => 'hash:/etc/postfix/sasl_passwd';
  'smtp_sasl_security_options': value => 'noanonymous';
}
postfix::config { 'mydestination':
  ensure => 'blank',
}
postfix::config { 'smtpd_banner':
  ensure => 'absent',
}
postfix::hash { '/etc/postfix/sasl_passwd':
  ensure  => 'present',
  content => Sensitive("[smtp.example.com]:587 mrtest-relay:mrtest-relay-pw\n"),
  mode    => '0600',
}
