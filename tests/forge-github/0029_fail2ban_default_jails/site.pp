# fail2ban (voxpupuli) with its Debian 12 jail.conf, the ssh jails, a ban
# time, a retry limit and addresses never banned.
class { 'fail2ban':
  jails     => ['ssh', 'ssh-ddos'],
  bantime   => 3600,
  maxretry  => 5,
  whitelist => ['127.0.0.1/8', '192.0.2.0/24'],
  email     => 'root@example.com',
}
