notify { 'mrtest-generated':
  message => "dc=${lookup('mrtest::dc')} servers=${lookup('ntp::servers', Array, 'unique')}",
}
