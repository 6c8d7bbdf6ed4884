# The daemon runs; the base provider asks the status command whether it
# does, and the exec's event restarts it with the restart command. The
# stop command is not used: there is a restart command.
exec { 'mrtest-svc-base-cmd-trigger':
  command => '/bin/touch /tmp/mrtest-svc-base-cmd/triggered',
  creates => '/tmp/mrtest-svc-base-cmd/triggered',
  notify  => Service['mrtest-svc-base-cmd'],
}
service { 'mrtest-svc-base-cmd':
  ensure   => running,
  provider => base,
  start    => '/bin/sh /tmp/mrtest-svc-base-cmd/daemon &',
  status   => 'test -f /tmp/mrtest-svc-base-cmd/pid && kill -0 "$(cat /tmp/mrtest-svc-base-cmd/pid)"',
  stop     => 'kill "$(cat /tmp/mrtest-svc-base-cmd/pid)" && rm /tmp/mrtest-svc-base-cmd/pid',
  restart  => 'echo restart >> /tmp/mrtest-svc-base-cmd/restarts; kill "$(cat /tmp/mrtest-svc-base-cmd/pid)"; /bin/sh /tmp/mrtest-svc-base-cmd/daemon &',
}
