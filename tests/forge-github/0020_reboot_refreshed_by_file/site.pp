# A reboot refreshed by a changed kernel command line file, immediately.
file { '/etc/default/grub.d/mrtest.cfg':
  ensure  => file,
  content => "GRUB_CMDLINE_LINUX_DEFAULT=\"\$GRUB_CMDLINE_LINUX_DEFAULT quiet\"\n",
}
reboot { 'mrtest-cmdline':
  when      => refreshed,
  apply     => immediately,
  subscribe => File['/etc/default/grub.d/mrtest.cfg'],
}
