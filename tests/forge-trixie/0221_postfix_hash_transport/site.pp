# Per-domain routing: transport map entries (a relay with an explicit
# port, a local delivery, a removed entry), a sender-dependent relay map
# given as a hash file, and both maps declared in main.cf.
include postfix
postfix::transport { 'example.org':
  destination => 'relay',
  nexthop     => '[mx.example.org]:2525',
}
postfix::transport { 'lists.example.com':
  destination => 'mrtest-mailman',
}
postfix::transport { 'old.example.com':
  ensure => 'absent',
}
postfix::hash { '/etc/postfix/sender_relay':
  ensure  => 'present',
  content => "@example.net [smtp.example.net]:587\n",
}
postfix::config { 'transport_maps':
  value => 'hash:/etc/postfix/transport',
}
postfix::config { 'sender_dependent_relayhost_maps':
  value => 'hash:/etc/postfix/sender_relay',
}
