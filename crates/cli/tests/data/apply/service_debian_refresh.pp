# The init script's daemon runs and starts at boot: the exec's event
# restarts it through the script.
exec { 'mrtest-svc-deb-refresh-trigger':
  command => '/bin/touch /tmp/mrtest-svc-deb-refresh/triggered',
  creates => '/tmp/mrtest-svc-deb-refresh/triggered',
  notify  => Service['mrtest-svc-deb-refresh'],
}
service { 'mrtest-svc-deb-refresh':
  ensure   => running,
  enable   => true,
  provider => debian,
}
