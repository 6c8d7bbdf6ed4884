file { '/tmp/mrtest-rbtypes/mrtest-flag.conf':
  content => "changed\n",
  notify  => [Service['mrtest-flag'], Service['mrtest-plain'], Service['mrtest-stopped']],
}
service { 'mrtest-flag':
  ensure   => running,
  provider => mrtest_flag,
}
service { 'mrtest-plain':
  provider => mrtest_plain,
  start    => 'touch /tmp/mrtest-rbtypes/mrtest-plain.pid',
  status   => 'test -f /tmp/mrtest-rbtypes/mrtest-plain.pid',
  stop     => ['rm', '/tmp/mrtest-rbtypes/mrtest-plain.pid'],
  restart  => 'touch /tmp/mrtest-rbtypes/mrtest-plain.restarted',
}
service { 'mrtest-stopped':
  provider => mrtest_flag,
}
