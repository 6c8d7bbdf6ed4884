exec { 'mrtest-noop':
  command  => 'echo noop >> /tmp/mrtest-rbtypes/exec-log',
  provider => mrtest_sh,
  noop     => true,
}
