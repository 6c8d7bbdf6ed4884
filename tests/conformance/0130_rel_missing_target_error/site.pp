notify { 'mrtest-lonely':
  require => File['/tmp/mrtest-does-not-exist'],
}
