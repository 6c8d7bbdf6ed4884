# The daemon runs; without a stop command, the base provider stops it by
# signalling the process its pattern finds.
service { 'mrtest-svc-base-stopped':
  ensure   => stopped,
  provider => base,
  start    => '/bin/sh /tmp/mrtest-svc-base-stopped/daemon &',
  pattern  => 'mrtest-svc-base-stopped/daemon',
}
