service { 'mrtest-flag':
  ensure   => running,
  enable   => true,
  provider => mrtest_flag,
}
service { 'mrtest-plain':
  ensure   => running,
  provider => mrtest_plain,
  start    => 'touch /tmp/mrtest-rbtypes/mrtest-plain.pid',
  status   => 'test -f /tmp/mrtest-rbtypes/mrtest-plain.pid',
  stop     => ['rm', '/tmp/mrtest-rbtypes/mrtest-plain.pid'],
}
package { ['mrtest-one', 'mrtest-two']:
  ensure   => installed,
  provider => mrtest_pkg,
}
package { 'mrtest-pinned':
  ensure   => '1.5',
  provider => mrtest_pkg,
}
