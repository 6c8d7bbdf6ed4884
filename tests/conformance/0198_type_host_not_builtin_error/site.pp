host { 'mrtest-h.example.com':
  ensure       => present,
  ip           => '192.0.2.44',
  host_aliases => ['mrtest-h', 'mrtest-alias'],
  comment      => 'mrtest host',
  target       => '/tmp/mrtest-hosts',
}
