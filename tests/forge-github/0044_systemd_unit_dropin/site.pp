# voxpupuli's systemd 7 (which stands in for camptocamp's here): a service
# unit file with its service, a drop-in, a tmpfiles entry and journald
# settings.
systemd::unit_file { 'mrtest-app.service':
  content => "[Unit]\nDescription=mrtest app\n\n[Service]\nExecStart=/usr/local/bin/mrtest-app\n\n[Install]\nWantedBy=multi-user.target\n",
  enable  => true,
  active  => true,
}
systemd::dropin_file { 'mrtest-limits.conf':
  unit    => 'mrtest-app.service',
  content => "[Service]\nLimitNOFILE=65536\n",
}
systemd::tmpfile { 'mrtest-app.conf':
  content => "d /run/mrtest-app 0755 root root -\n",
}
class { 'systemd':
  manage_journald   => true,
  journald_settings => {
    'SystemMaxUse' => '500M',
    'Compress'     => 'yes',
  },
}
