exec { 'mrtest-exec':
  command     => '/bin/echo "quoted $HOME"',
  cwd         => '/tmp',
  environment => ['MRTEST=1', 'LANG=C'],
  creates     => '/tmp/mrtest-created',
  unless      => ['/bin/false', '/bin/test -f /tmp/mrtest-x'],
  timeout     => 30,
  tries       => 3,
  try_sleep   => 2.5,
  returns     => [0, 2],
  logoutput   => 'on_failure',
  provider    => 'shell',
}
