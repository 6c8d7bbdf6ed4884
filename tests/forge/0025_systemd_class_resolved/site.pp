# The systemd class managing resolved and timesyncd.
class { 'systemd':
  manage_resolved  => true,
  dns              => ['192.0.2.53'],
  manage_timesyncd => true,
  ntp_server       => ['0.pool.ntp.org'],
}
