# The PowerDNS authoritative server with its MySQL backend and a couple of
# pdns.conf settings.
class { 'powerdns': }
class { 'powerdns::mysql':
  user     => 'pdns',
  password => 'mrtest-pdns-db',
  host     => 'localhost',
  dbname   => 'pdns',
}
powerdns::config { 'allow-axfr-ips':
  value => '192.0.2.53',
}
powerdns::config { 'local-port':
  value => '53',
}
