# An init script with no rc links and a stopped daemon: the debian provider
# starts it through the script and enables it with update-rc.d. The exec's
# event does not restart it: Puppet does not restart a service it has just
# started.
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
