# chrony as the site's time server: Debian pools and an internal server as
# sources, NTP clients on the local networks allowed (one subnet denied),
# client logging and a notice mail on large steps.
class { 'chrony':
  pools            => {
    '2.debian.pool.ntp.org' => ['iburst', 'maxsources 4'],
  },
  servers          => {
    'ntp1.example.com' => ['iburst', 'prefer'],
  },
  queryhosts       => ['192.0.2.0/24', '198.51.100.0/24'],
  denyqueryhosts   => ['192.0.2.128/25'],
  clientlog        => true,
  mailonchange     => 'mrtest-ops@example.com',
  threshold        => 0.5,
  makestep_seconds => 1,
  makestep_updates => 3,
  leapsectz        => 'right/UTC',
  service_name     => 'chrony',
}
