# A small MTA accepting mail for its domains (mta => true), with virtual
# aliases to local and remote recipients, canonical rewriting, extra
# master.cf entries and masquerading of subdomains.
class { 'postfix':
  mta                => true,
  mydestination      => '$myhostname, localhost, example.com',
  mynetworks         => '127.0.0.0/8, 192.0.2.0/24',
  relayhost          => 'direct',
  masquerade_domains => ['example.com'],
  master_submission  => 'submission inet n - - - - smtpd',
  master_entries     => ['mrtest-filter unix - n n - 10 pipe flags=Rq user=nobody argv=/usr/local/bin/mrtest-filter'],
}
postfix::virtual { 'postmaster@example.com':
  destination => 'root',
}
postfix::virtual { 'mrtest-team@example.com':
  destination => ['mrtest-alice', 'mrtest-bob@example.org'],
}
postfix::canonical { 'root@mrtest.example.com':
  destination => 'mrtest-admin@example.com',
  file        => '/etc/postfix/sender_canonical',
}
postfix::hash { '/etc/postfix/sender_canonical':
  ensure => 'present',
}
postfix::config { 'sender_canonical_maps':
  value => 'hash:/etc/postfix/sender_canonical',
}
