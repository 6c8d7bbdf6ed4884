exec { 'echo "$MRTEST_RUNNER" > /tmp/mrtest-rbtypes/exec-created':
  creates  => '/tmp/mrtest-rbtypes/exec-created',
  provider => mrtest_sh,
}
exec { 'mrtest-unless':
  command  => 'echo unless >> /tmp/mrtest-rbtypes/exec-log',
  unless   => 'test -f /tmp/mrtest-rbtypes/exec-stop',
  provider => mrtest_sh,
}
exec { 'mrtest-onlyif':
  command  => 'echo onlyif >> /tmp/mrtest-rbtypes/exec-log',
  onlyif   => 'test -f /tmp/mrtest-rbtypes/exec-stop',
  provider => mrtest_sh,
}
exec { 'mrtest-env':
  command     => 'echo "$MRTEST_GREETING from $PWD" >> /tmp/mrtest-rbtypes/exec-log',
  environment => ['MRTEST_GREETING=hello'],
  cwd         => '/tmp/mrtest-rbtypes',
  path        => ['/usr/bin', '/bin'],
  provider    => mrtest_sh,
  unless      => 'grep -q hello /tmp/mrtest-rbtypes/exec-log',
}
