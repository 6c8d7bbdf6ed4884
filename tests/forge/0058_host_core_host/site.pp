# Host entries.
host { 'db.example.com':
  ip           => '192.0.2.20',
  host_aliases => ['db', 'mysql'],
}
host { 'old.example.com':
  ensure => absent,
}
