# A start command that fails, and a service its dependent is skipped for.
service { 'mrtest-svc-fail':
  ensure   => running,
  provider => base,
  start    => '/bin/sh -c "echo cannot start; exit 3"',
  pattern  => 'mrtest-svc-fail/daemon',
}
exec { 'mrtest-svc-fail-after':
  command => '/bin/touch /tmp/mrtest-svc-fail/after',
  require => Service['mrtest-svc-fail'],
}
