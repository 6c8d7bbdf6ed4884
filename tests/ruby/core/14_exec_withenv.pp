exec { 'echo "$MRTEST_WITHENV" > /tmp/mrtest-rbtypes/withenv':
  creates  => '/tmp/mrtest-rbtypes/withenv',
  provider => mrtest_withenv,
}
