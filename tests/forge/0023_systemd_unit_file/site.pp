# A unit file installed and its service enabled.
systemd::unit_file { 'foo.service':
  content => "[Unit]\nDescription=Foo\n\n[Service]\nExecStart=/usr/bin/foo\n",
  enable  => true,
  active  => true,
}
