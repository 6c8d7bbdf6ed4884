# A systemd timer with its service (systemd::timer), and networkd and
# timesyncd managed by the systemd class.
systemd::timer { 'mrtest-backup.timer':
  timer_content   => "[Timer]\nOnCalendar=daily\nPersistent=true\n",
  service_content => "[Service]\nType=oneshot\nExecStart=/usr/local/bin/mrtest-backup\n",
  active          => true,
  enable          => true,
}
class { 'systemd':
  manage_networkd  => true,
  manage_timesyncd => true,
  ntp_server       => ['0.debian.pool.ntp.org', '1.debian.pool.ntp.org'],
}
