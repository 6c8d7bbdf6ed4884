exec { 'mrtest-fails':
  command  => 'echo "first line"; echo "second line"; exit 3',
  provider => mrtest_sh,
}
-> file { '/tmp/mrtest-rbtypes/after-exec':
  content => "never\n",
}
exec { 'mrtest-tries':
  command   => 'echo try >> /tmp/mrtest-rbtypes/exec-tries; exit 1',
  tries     => 2,
  returns   => [0, 2],
  logoutput => false,
  provider  => mrtest_sh,
}
