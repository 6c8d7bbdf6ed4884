package { 'mrtest-never':
  ensure   => installed,
  provider => mrtest_never,
}
-> file { '/tmp/mrtest-rbtypes/after-never':
  content => "never\n",
}
