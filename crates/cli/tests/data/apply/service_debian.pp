# An init script with no rc links and a stopped daemon: the debian provider
# starts it through the script and enables it with update-rc.d; the exec's
# event restarts it through the script.
exec { 'mrtest-svc-deb-trigger':
  command => '/bin/touch /tmp/mrtest-svc-deb/triggered',
  creates => '/tmp/mrtest-svc-deb/triggered',
  notify  => Service['mrtest-svc-deb'],
}
service { 'mrtest-svc-deb':
  ensure   => running,
  enable   => true,
  provider => debian,
}
