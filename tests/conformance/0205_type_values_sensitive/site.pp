file { '/tmp/mrtest-secret':
  ensure  => file,
  content => Sensitive("top secret\n"),
  mode    => '0600',
}
user { 'mrtest-pw':
  password => Sensitive('$6$mrtest$hash'),
}
