# Augeas changes to sshd_config and sysctl.
augeas { 'sshd_config':
  context => '/files/etc/ssh/sshd_config',
  changes => ['set PermitRootLogin no', 'set X11Forwarding no'],
}
augeas { 'sysctl':
  context => '/files/etc/sysctl.conf',
  changes => 'set net.ipv4.ip_forward 1',
  onlyif  => 'get net.ipv4.ip_forward != 1',
}
