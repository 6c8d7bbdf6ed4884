# An agent run by a systemd timer at fixed minutes, in noop mode, with the
# DNS SRV lookup of the server enabled. The fixed facts lack stdlib's
# service_provider fact, so the runmodes available on systemd are given.
class { 'puppet':
  server                     => false,
  runmode                    => 'systemd.timer',
  unavailable_runmodes       => [],
  run_minute                 => [15, 45],
  systemd_randomizeddelaysec => 120,
  agent_noop                 => true,
  use_srv_records            => true,
  srv_domain                 => 'example.com',
  dns_alt_names              => ['mrtest.example.com', 'mrtest'],
}
