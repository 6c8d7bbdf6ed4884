service { 'mrtest-broken':
  ensure   => running,
  provider => mrtest_flag,
}
-> file { '/tmp/mrtest-rbtypes/after-broken':
  content => "never\n",
}
service { 'mrtest-nocommand':
  ensure   => running,
  provider => mrtest_plain,
}
