# The same again: nothing to do, the flags given out of order included
# (the property sorts what it is given).
mrtest_family { 'lo':
  address => '127.0.0.1',
  flags   => ['up', 'loopback'],
}
mrtest_family { 'lo6':
  address  => '::1',
  provider => ip6,
}
