# A custom fail2ban jail (fail2ban::jail) with its own filter regular
# expressions, reading the systemd journal, next to the class's jails.
include fail2ban
fail2ban::jail { 'mrtest-app':
  port             => 'http,https',
  logpath          => '/var/log/mrtest-app/access.log',
  filter_failregex => '^<HOST> .* "POST /login HTTP/1\.[01]" 401',
  maxretry         => 10,
  findtime         => 600,
  bantime          => 7200,
  ignoreip         => ['192.0.2.10'],
}
fail2ban::jail { 'mrtest-sshd-journal':
  filter       => 'sshd',
  port         => 'ssh',
  backend      => 'systemd',
  journalmatch => '_SYSTEMD_UNIT=ssh.service',
}
