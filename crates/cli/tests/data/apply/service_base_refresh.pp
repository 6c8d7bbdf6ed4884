# The daemon runs; the exec's event restarts it (a stop by its pattern and
# a start, as there is no restart command). The exec runs only once.
exec { 'mrtest-svc-base-refresh-trigger':
  command => '/bin/touch /tmp/mrtest-svc-base-refresh/triggered',
  creates => '/tmp/mrtest-svc-base-refresh/triggered',
  notify  => Service['mrtest-svc-base-refresh'],
}
service { 'mrtest-svc-base-refresh':
  ensure   => running,
  provider => base,
  start    => '/bin/sh /tmp/mrtest-svc-base-refresh/daemon &',
  pattern  => 'mrtest-svc-base-refresh/daemon',
}
