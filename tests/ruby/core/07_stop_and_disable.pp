service { 'mrtest-flag':
  ensure   => stopped,
  enable   => false,
  provider => mrtest_flag,
}
service { 'mrtest-plain':
  ensure   => stopped,
  provider => mrtest_plain,
  start    => 'touch /tmp/mrtest-rbtypes/mrtest-plain.pid',
  status   => 'test -f /tmp/mrtest-rbtypes/mrtest-plain.pid',
  stop     => ['rm', '/tmp/mrtest-rbtypes/mrtest-plain.pid'],
}
