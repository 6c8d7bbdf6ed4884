@@file { '/tmp/mrtest-exported':
  ensure  => file,
  content => 'exported',
  tag     => 'mrtest_export',
}
notify { 'mrtest-plain': }
