file { '/tmp/mrtest-rbtypes/exec-stop':
  content => "stop\n",
  notify  => [Exec['mrtest-refreshonly'], Exec['mrtest-refresh-command']],
}
exec { 'echo "$MRTEST_RUNNER" > /tmp/mrtest-rbtypes/exec-created':
  creates  => '/tmp/mrtest-rbtypes/exec-created',
  provider => mrtest_sh,
}
exec { 'mrtest-refreshonly':
  command     => 'echo refreshed >> /tmp/mrtest-rbtypes/exec-log',
  refreshonly => true,
  provider    => mrtest_sh,
}
exec { 'mrtest-refresh-command':
  command  => 'echo command >> /tmp/mrtest-rbtypes/exec-log',
  refresh  => 'echo refresh-command >> /tmp/mrtest-rbtypes/exec-log',
  creates  => '/tmp/mrtest-rbtypes/exec-log',
  provider => mrtest_sh,
}
