# A daemon that no init system knows: the base provider starts it with a
# shell command (which leaves it in the background) and finds it in the
# process table by its pattern.
service { 'mrtest-svc-base':
  ensure   => running,
  provider => base,
  start    => '/bin/sh /tmp/mrtest-svc-base/daemon &',
  pattern  => 'mrtest-svc-base/daemon',
}
